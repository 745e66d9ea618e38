// The README and docs/ hold the project's contract, and code comments cite their anchors: every
// relative link must reach a file of the repository and, with #anchor, a heading of that page as
// GitHub names it. No page may cite a document outside the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';

const root = packagePath();
const pages = [
  'README.md',
  'CHANGELOG.md',
  'SECURITY.md',
  ...readdirSync(packagePath('docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code, where links and headings live. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, (code) => code.replace(/[[\]()#]/g, ' '));
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(path.join(root, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = githubSlug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function linksOf(page: string): string[] {
  const text = prose(readFileSync(path.join(root, page), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

/**
 * The files of the working tree that .gitignore does not ignore (read here, not from git: the fast
 * tests start no process). Its patterns are folder names (`dist/`) and `*.ext`, matched at any depth.
 */
function listFiles(): string[] {
  const rules = readFileSync(path.join(root, '.gitignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const dirs = new Set(['.git', ...rules.filter((r) => r.endsWith('/')).map((r) => r.slice(0, -1))]);
  const exts = rules.filter((r) => r.startsWith('*.')).map((r) => r.slice(1));
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const f = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) return dirs.has(e.name) ? [] : walk(f);
      return exts.some((x) => e.name.endsWith(x)) ? [] : [f];
    });
  return walk('');
}

describe('the documentation', () => {
  it('finds the slug GitHub gives a heading', () => {
    expect(githubSlug('Charges (cash-in)')).toBe('charges-cash-in');
    expect(githubSlug("D3. Merchant status is the operator's")).toBe('d3-merchant-status-is-the-operators');
    expect(githubSlug('`startSandbox` options')).toBe('startsandbox-options');
  });

  it.each(pages)('%s: every relative link reaches a file, and every #anchor a heading of it', (page) => {
    const broken: string[] = [];
    for (const link of linksOf(page)) {
      const [file = '', anchor] = link.split('#');
      const target = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (!existsSync(path.join(root, target))) {
        broken.push(`${link}: no file ${target}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor))
        broken.push(`${link}: no heading #${anchor} in ${target}`);
    }
    expect(broken).toEqual([]);
  });

  // every text file of the repository: source, tests, scripts, bench, the dashboard, docs, scenarios
  const tracked = listFiles().filter((f) => /\.(ts|js|mjs|cjs|md|json|ya?ml|html|css|sh)$/.test(f) && existsSync(path.join(root, f)));
  // written in two pieces so that this file does not match itself
  const outside = new RegExp(`${'CONTRA'}CT(\\.md)?\\s*§|${'CONTRA'}CT\\.md|/work/(shared|main)|shared${'/'}spec`);

  it('no tracked file cites a document outside the repository', () => {
    const citing = tracked.filter((f) => outside.test(readFileSync(path.join(root, f), 'utf8')));
    expect(citing).toEqual([]);
  });

  it('every docs/<page>.md#anchor cited in a tracked file names a page and a heading that exist', () => {
    const broken: string[] = [];
    let cited = 0;
    for (const f of tracked) {
      for (const m of readFileSync(path.join(root, f), 'utf8').matchAll(/\bdocs\/([a-z0-9-]+\.md)(?:#([\w-]+))?/g)) {
        cited++;
        const page = `docs/${m[1]!}`;
        if (!existsSync(path.join(root, page))) broken.push(`${f}: ${m[0]}: no page ${page}`);
        else if (m[2] !== undefined && !anchorsOf(page).has(m[2])) broken.push(`${f}: ${m[0]}: no heading #${m[2]} in ${page}`);
      }
    }
    expect(broken).toEqual([]);
    expect(cited).toBeGreaterThan(80);
  });

  it('lists every page of docs/ in its index', () => {
    const index = linksOf('docs/README.md').map((l) => `docs/${l.split('#')[0]}`);
    for (const page of pages.filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')) expect(index, page).toContain(page);
  });
});
