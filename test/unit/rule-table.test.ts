// Where each rule lives (docs/architecture.md#where-each-rule-lives) and each decision's code
// (docs/decisions.md): every code link of those pages, [`name`](../src/file.ts) (or a file of scripts/ or
// test/ where the rule is kept there: a release, the published file list), names a function,
// a constant or a class (`Class.member` for a member) declared in that file, read by the TypeScript
// compiler's parser. Every decision links to its code, and so does every row of the table.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';

/** A code link: its name, the file as written, the page it is on. */
interface CodeLink {
  name: string;
  file: string;
  page: string;
}

const CODE_LINK = /\[`([A-Za-z_$#][\w$#.]*)`\]\(((?:\.\.\/)+(?:src|scripts|test)\/[^)\s#]+\.(?:ts|mjs))\)/g;

function codeLinks(page: string, text: string): CodeLink[] {
  return [...text.matchAll(CODE_LINK)].map((m) => ({ name: m[1]!, file: m[2]!, page }));
}

const declared = new Map<string, Set<string>>();

/** The names a source file declares: functions, variables, classes and their members (as Class.member). */
function declaredIn(file: string): Set<string> {
  let names = declared.get(file);
  if (names) return names;
  names = new Set();
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  for (const node of source.statements) {
    if (ts.isFunctionDeclaration(node) && node.name) names.add(node.name.text);
    else if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    } else if (ts.isClassDeclaration(node) && node.name) {
      const cls = node.name.text;
      names.add(cls);
      for (const member of node.members)
        if (member.name && (ts.isIdentifier(member.name) || ts.isPrivateIdentifier(member.name))) names.add(`${cls}.${member.name.text}`);
    }
  }
  declared.set(file, names);
  return names;
}

/** The links that name nothing: a missing file, or a name the file does not declare. */
function unresolved(links: CodeLink[]): string[] {
  const wrong: string[] = [];
  for (const link of links) {
    const file = path.resolve(packagePath('docs'), link.file);
    if (!existsSync(file)) wrong.push(`${link.page}: ${link.file} does not exist (${link.name})`);
    else if (!declaredIn(file).has(link.name)) wrong.push(`${link.page}: ${link.file} declares no ${link.name}`);
  }
  return wrong;
}

const architecture = readFileSync(packagePath('docs/architecture.md'), 'utf8');
const decisions = readFileSync(packagePath('docs/decisions.md'), 'utf8');

/** The section "Where each rule lives" of architecture.md, up to the next section of its level. */
function ruleTable(): string {
  const start = architecture.indexOf('\n## Where each rule lives');
  expect(start, 'docs/architecture.md has a section "Where each rule lives"').toBeGreaterThan(0);
  const end = architecture.indexOf('\n## ', start + 1);
  return architecture.slice(start, end < 0 ? undefined : end);
}

/** Each decision of decisions.md (### Dnn. …) with its text. */
function decisionSections(): { title: string; text: string }[] {
  const parts = decisions.split(/^(?=### D\d+\. )/m).slice(1);
  return parts.map((p) => ({ title: p.slice(4, p.indexOf('\n')), text: p.split(/^## /m)[0]! }));
}

describe('the rule-to-code table and the decisions name code that exists', () => {
  it('reads the declarations of a file, class members included', () => {
    const names = declaredIn(packagePath('src/domain/transfers.ts'));
    expect(names.has('settlementOf')).toBe(true);
    expect(names.has('DEFAULT_FAILURE')).toBe(true);
    expect(declaredIn(packagePath('src/store/store.ts')).has('Store.commit')).toBe(true);
    expect(unresolved([{ name: 'settlementOfTypo', file: '../src/domain/transfers.ts', page: 'a test' }])).toEqual([
      'a test: ../src/domain/transfers.ts declares no settlementOfTypo',
    ]);
    expect(unresolved([{ name: 'settlementOf', file: '../src/domain/transfer.ts', page: 'a test' }])).toHaveLength(1);
  });

  it('every row of the table names its code, and every name is declared in its file', () => {
    const rows = ruleTable()
      .split('\n')
      .filter((line) => line.startsWith('| ') && !/^\|\s*(rule|---)/.test(line));
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.filter((row) => codeLinks('', row).length === 0)).toEqual([]);
    expect(unresolved(codeLinks('docs/architecture.md', ruleTable()))).toEqual([]);
  });

  it('every decision links to its code, and every name is declared in its file', () => {
    const sections = decisionSections();
    expect(sections.length).toBeGreaterThan(50);
    expect(sections.filter((s) => codeLinks('', s.text).length === 0).map((s) => s.title)).toEqual([]);
    expect(unresolved(codeLinks('docs/decisions.md', decisions))).toEqual([]);
  });
});
