// Reads CHANGELOG.md (Keep a Changelog): the release notes of a version, or the latest version.
// Used by .github/workflows/release.yml (the notes of the GitHub release) and by the tests.
// Usage: node scripts/changelog-section.mjs <version>   prints that version's section, without its heading
//        node scripts/changelog-section.mjs --latest    prints the newest released version (not Unreleased)
// Exits 1, naming what is missing, when the version has no section or the section is empty.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const file = process.env.CHANGELOG ?? path.join(root, 'CHANGELOG.md');
const text = await readFile(file, 'utf8');

// "## [1.2.3] - 2026-01-31" (or "## [Unreleased]"): the name in brackets, then the body up to the next "## "
const sections = [...text.matchAll(/^## \[([^\]]+)\][^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)].map((m) => ({
  name: m[1],
  body: m[2].trim(),
}));
const released = sections.filter((s) => s.name !== 'Unreleased');

const [arg] = process.argv.slice(2);
if (!arg) {
  console.error('usage: changelog-section.mjs <version> | --latest');
  process.exit(2);
}
if (arg === '--latest') {
  if (!released.length) {
    console.error(`${file}: no released version (a "## [x.y.z] - date" heading)`);
    process.exit(1);
  }
  console.log(released[0].name);
} else {
  const section = released.find((s) => s.name === arg.replace(/^v/, ''));
  if (!section?.body) {
    const why = section ? 'is empty' : `is missing (it has: ${released.map((s) => s.name).join(', ') || 'none'})`;
    console.error(`${file}: the section "## [${arg}]" ${why}`);
    process.exit(1);
  }
  console.log(section.body);
}
