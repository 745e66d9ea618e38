// Preloaded (node -r) into a measured process started with --expose-gc: SIGUSR2 runs a full
// garbage collection, so that the bench reads resident memory without garbage that no
// collection has reclaimed yet. It changes nothing else in the process.
if (typeof global.gc === 'function') process.on('SIGUSR2', () => global.gc());
