// The sandbox from its built library (dist/src), with its cross-site checks on or off: the targets
// section's baseline for what the checks cost, the same build run the same way with and without them.
// `boot()`'s internals are no option a user can set (no flag, no variable, no export of the package):
// only a file that imports dist/src/server.js by path reaches them.
//   node bench/peers/sandbox-checks.mjs on|off <data-dir>
import { configFromArgs } from '../../dist/src/cli/serve.js';
import { boot } from '../../dist/src/server.js';

const [checks, dataDir] = process.argv.slice(2);
if ((checks !== 'on' && checks !== 'off') || !dataDir) throw new Error('usage: sandbox-checks.mjs on|off <data-dir>');
const running = await boot(configFromArgs({ port: 0, 'https-port': 'off', 'data-dir': dataDir }), { crossSiteChecks: checks === 'on' });
console.log(`listening on ${running.listeners[0].url}`);
process.on('SIGTERM', () => running.stop().then(() => process.exit(0)));
