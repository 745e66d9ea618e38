// A client generated with openapi-typescript from the running sandbox's /openapi.json, used by a
// program written as a user would (test/generated-client/program.ts, on openapi-fetch): the program
// type-checks with no edit, every call it marks with `@ts-expect-error TSnnnn` is refused by the
// types with exactly that error (so the test fails the day the document stops saying so), and the
// compiled program runs against the sandbox.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const PROGRAM = packagePath('test', 'generated-client', 'program.ts');
const MARK = /\/\/ @ts-expect-error (TS\d+)\b/;

let sb: TestSandbox;
let dir: string;
/** what type-checking the program as written found (it is compiled into out/ on the way) */
let asWritten: Problem[];
beforeAll(async () => {
  sb = await startTestSandbox();
  await mkdir(packagePath('test-output'), { recursive: true });
  // inside the package, so that the program finds openapi-fetch and @types/node in its node_modules
  dir = await mkdtemp(path.join(packagePath('test-output'), 'generated-client-'));
  const doc = await sb.request('GET', '/openapi.json');
  expect(doc.status).toBe(200);
  await writeFile(path.join(dir, 'api.d.ts'), astToString(await openapiTS(doc.body)));
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  await copyFile(PROGRAM, path.join(dir, 'program.ts'));
  asWritten = compile('program.ts', false);
}, 60_000);
afterAll(async () => {
  await sb.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Problem {
  file: string;
  line: number;
  code: string;
  text: string;
}

/** Type-checks (and, unless noEmit, compiles into out/) one file of `dir` as an ESM program would be. */
function compile(file: string, noEmit: boolean): Problem[] {
  const program = ts.createProgram([path.join(dir, file)], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: path.join(dir, 'out'),
    noEmit,
  });
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ({
    file: d.file ? path.basename(d.file.fileName) : '',
    line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    code: `TS${d.code}`,
    text: ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 200),
  }));
}

describe('a client generated from /openapi.json (openapi-typescript, openapi-fetch)', () => {
  it('type-checks the program as written: each @ts-expect-error is needed, nothing else is an error', () => {
    expect(asWritten).toEqual([]);
  });

  it('refuses every marked call, each with the error its mark names, on the line below the mark', async () => {
    const lines = (await readFile(PROGRAM, 'utf8')).split('\n');
    const expected: Problem[] = [];
    const stripped = lines.map((line, i) => {
      const m = MARK.exec(line);
      if (!m) return line;
      expected.push({ file: 'refused.ts', line: i + 2, code: m[1]!, text: '' });
      return line.replace(MARK, '// (refused: $1)');
    });
    // a merchant PATCH with document, a cash-out without its key, an unknown code, a field a state lacks
    expect(expected.length).toBeGreaterThanOrEqual(4);
    await writeFile(path.join(dir, 'refused.ts'), stripped.join('\n'));
    const found = compile('refused.ts', true).map((p) => ({ ...p, text: '' }));
    expect(found).toEqual(expected);
  }, 60_000);

  it('runs: a paid charge looks up COMPLETED with its payer, an uncovered cash-out is a typed 422', async () => {
    const run = await promisify(execFile)(process.execPath, [path.join(dir, 'out', 'program.js'), sb.url], { timeout: 30_000 });
    const result = JSON.parse(run.stdout) as { lookup: string; cashOutCode: string; replayed: string | null };
    expect(result.lookup).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11} paid by /);
    expect(result.cashOutCode).toBe('INSUFFICIENT_FUNDS');
    expect(result.replayed).toBeNull();
  }, 60_000);
});
