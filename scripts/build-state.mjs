// Whether dist/ was built from the sources as they are now, so that `npm start` (and the tests of
// built code) build only when something changed, and never serve a stale build
// (docs/contributing.md#run).
//
// The build's inputs are every file of src/, the tsconfig files, package.json, package-lock.json and
// the scripts the build script runs; their fingerprint is a SHA-256 of their paths and contents
// (about 1.5 MB: a few milliseconds). `npm run build` records the fingerprint of the inputs as they
// were when it began (`begin`, then `end` once every step succeeded) in dist/.build-fingerprint.
//
//   node scripts/build-state.mjs begin    first step of npm run build: forget the old record
//   node scripts/build-state.mjs end      last step of npm run build: record what was built
//   node scripts/build-state.mjs ensure   build (npm run build) unless the record matches the sources
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const RECORD = path.join(ROOT, 'dist', '.build-fingerprint');
const PENDING = `${RECORD}.pending`;
const BIN = path.join(ROOT, 'dist', 'bin', 'pix-sandbox.js');

/** The build's input files, relative to the root, sorted. */
function buildInputs() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const scripts = [...(pkg.scripts?.build ?? '').matchAll(/\bscripts\/[\w./-]+\.m?js\b/g)].map((m) => m[0]);
  const src = readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      path
        .relative(ROOT, path.join(e.parentPath ?? e.path, e.name))
        .split(path.sep)
        .join('/'),
    );
  const top = ['package.json', 'package-lock.json', ...readdirSync(ROOT).filter((f) => /^tsconfig.*\.json$/.test(f))];
  return [...new Set([...src, ...top, ...scripts])].filter((f) => existsSync(path.join(ROOT, f))).sort();
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const f of buildInputs())
    hash
      .update(`${f}\0`)
      .update(readFileSync(path.join(ROOT, f)))
      .update('\0');
  return hash.digest('hex');
}

/** null when dist/ holds a complete build of the sources as they are; otherwise why not. */
function staleness() {
  if (!existsSync(BIN) || !existsSync(RECORD)) return 'there is no complete build in dist/';
  return readFileSync(RECORD, 'utf8').trim() === fingerprint() ? null : 'the sources changed since dist/ was built';
}

/** Builds unless dist/ is current; says so on stderr when it builds. Returns the exit status. */
function ensureBuilt() {
  const why = staleness();
  if (!why) return 0;
  process.stderr.write(`pix-sandbox: ${why}: building first (npm run build)\n`);
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  return r.status ?? 1;
}

const step = process.argv[2];
if (step === 'begin') {
  rmSync(RECORD, { force: true });
  mkdirSync(path.dirname(PENDING), { recursive: true });
  writeFileSync(PENDING, `${fingerprint()}\n`);
} else if (step === 'end') {
  renameSync(PENDING, RECORD);
} else if (step === 'ensure') {
  process.exitCode = ensureBuilt();
} else {
  console.error('usage: node scripts/build-state.mjs begin | end | ensure');
  process.exitCode = 2;
}
