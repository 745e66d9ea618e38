// `npm run bench`: runs every section in bench/sections/ (by `order`, then name) and prints its
// figures. `node bench/run.mjs merchants` runs only the named sections. Figures are only
// comparable within one run: the load generator shares the machine with the servers.
// A section module exports either `section = { name, title, order?, run() }`, or a default
// function `({ log }) => results` (named after its file, run after the ordered ones).
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, CONNECTIONS, SECONDS } from './lib/harness.mjs';

async function sections() {
  const dir = path.join(BENCH_DIR, 'sections');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.mjs')).sort();
  const found = [];
  for (const f of files) {
    const mod = await import(pathToFileURL(path.join(dir, f)).href);
    const name = path.basename(f, '.mjs');
    if (mod.section) found.push(mod.section);
    else if (typeof mod.default === 'function') found.push({ name, title: name, run: () => mod.default({ log: console.log }) });
    else throw new Error(`bench/sections/${f} exports neither "section" nor a default function`);
  }
  return found.sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.name.localeCompare(b.name));
}

const wanted = process.argv.slice(2);
const all = await sections();
const chosen = wanted.length ? all.filter((s) => wanted.includes(s.name)) : all;
if (wanted.length && chosen.length !== wanted.length) {
  console.error(`unknown section(s); known: ${all.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

console.log(
  `pix-sandbox bench — node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ${CONNECTIONS} connections, ${SECONDS} s per run`,
);
const started = Date.now();
for (const s of chosen) {
  console.log(`\n## ${s.title}\n`);
  const t0 = Date.now();
  await s.run();
  console.log(`\n(${s.name}: ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s`);
