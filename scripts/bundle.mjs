// Bundles the command line (dist/src/cli/bin.js, compiled by tsc) with its dependencies into
// dist/bin/pix-sandbox.js. One file starts in about two thirds of the time of ~150 separate
// modules: Node no longer resolves, reads and links each file and package.json (bench/RESULTS.md).
// Modules loaded only when used (the certificate generator, the scenario runner) stay separate
// chunks, loaded on demand. The library entry (dist/src/index.js) stays unbundled.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

await rm(path.join(root, 'dist/bin'), { recursive: true, force: true }); // no stale chunks
await build({
  entryPoints: { 'pix-sandbox': path.join(root, 'dist/src/cli/bin.js') },
  outdir: path.join(root, 'dist/bin'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // some bundled CommonJS packages call require() for Node's own modules at run time
  banner: { js: "import { createRequire as __pixCreateRequire } from 'node:module'; const require = __pixCreateRequire(import.meta.url);" },
  // whitespace and syntax only: names stay, so stack traces still read
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'eof',
  logLevel: 'warning',
});
