// Counts the layer crossings of one cash-out request (docs/architecture.md#use-cases): the calls from a
// file of one folder of src/ (api, services, domain, store, http, …; the files at its root count as one,
// "root") to a function declared in another, among the calls that ran.
//
//   npm run build && node scripts/layer-crossings.mjs [checkout] [--detail]
//
// It starts the built sandbox (checkout/dist/src/index.js, with its source maps) in this process, warms
// it with two cash-outs, and takes V8's block coverage around a third. Each call expression of
// dist/src/**/*.js whose block ran is mapped back to its TypeScript call through the source map, and the
// type checker names the callee's declaration. A callee with a body counts only if it ran too (a call
// on a path not taken in a block that ran is left out). A call through an interface counts where the
// interface is declared (`tx.put` is a call into src/store/), and a callback is counted at its caller,
// not where it is passed. The figures compare two builds measured the same way, nothing more.
import { readFileSync, readdirSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const detail = args.includes('--detail');
const ts = createRequire(path.join(dir, 'package.json'))('typescript');
const srcDir = path.join(dir, 'src');
const distSrc = path.join(dir, 'dist', 'src');

// ---- the run: coverage of one cash-out
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
const { startSandbox } = await import(pathToFileURL(path.join(distSrc, 'index.js')).href);
const sb = await startSandbox({ tick: false });
const tokenAnswer = await fetch(`${sb.url}/v1/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ grant_type: 'client_credentials', ...sb.credentials }),
});
const { access_token: token } = await tokenAnswer.json();
async function cashOut() {
  const r = await fetch(`${sb.url}/v1/banking/cash-out/pix`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      type: 'pix_key',
      description: 'rent',
      amount: '1500',
      details: { name: 'Maria Souza', key: 'maria@pix-sandbox.test', keyType: 'EMAIL' },
    }),
  });
  if (r.status !== 201) throw new Error(`the cash-out answered ${r.status}: ${await r.text()}`);
  await r.json();
}
await cashOut();
await cashOut();
await new Promise((resolve) => setTimeout(resolve, 50));
await session.post('Profiler.takePreciseCoverage'); // resets the counters
await cashOut();
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
await sb.stop();

// ---- the TypeScript program: every call expression of src/, by file and "line:column"
const files = readdirSync(srcDir, { recursive: true })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join(srcDir, f));
const config = ts.getParsedCommandLineOfConfigFile(
  path.join(dir, 'tsconfig.build.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
);
const program = ts.createProgram(files, config.options);
const checker = program.getTypeChecker();
const folderOf = (file) => {
  const rel = path.relative(srcDir, file);
  if (rel.startsWith('..')) return null;
  return rel.includes(path.sep) ? rel.split(path.sep)[0] : 'root';
};
const isCall = (n) => ts.isCallExpression(n) || ts.isNewExpression(n);
const calleeName = (call) => {
  const e = call.expression;
  return ts.isPropertyAccessExpression(e) ? e.name.text : ts.isIdentifier(e) ? e.text : e.getText();
};
const tsCalls = new Map();
for (const f of files) {
  const sf = program.getSourceFile(f);
  const byPlace = new Map();
  const visit = (n) => {
    if (isCall(n)) {
      const { line, character } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
      const key = `${line}:${character}`;
      byPlace.set(key, [...(byPlace.get(key) ?? []), n]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  tsCalls.set(f, byPlace);
}
function declarationOf(call) {
  let symbol = checker.getSymbolAtLocation(call.expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.declarations?.[0] ?? null;
}

// ---- what ran: the TS lines where functions that ran begin, and each script's block counts
const scripts = result
  .filter((s) => s.url.startsWith('file:'))
  .map((s) => ({ ...s, jsFile: fileURLToPath(s.url) }))
  .filter((s) => s.jsFile.startsWith(distSrc + path.sep) && s.jsFile.endsWith('.js'));
const tsFileOf = (jsFile) => path.join(srcDir, path.relative(distSrc, jsFile)).replace(/\.js$/, '.ts');
const ranLines = new Set();
for (const s of scripts) {
  s.code = readFileSync(s.jsFile, 'utf8');
  s.map = new SourceMap(JSON.parse(readFileSync(`${s.jsFile}.map`, 'utf8')));
  for (const fn of s.functions) {
    if (fn.ranges[0].count === 0) continue;
    const start = fn.ranges[0].startOffset;
    const line = s.code.slice(0, start).split('\n').length - 1;
    const column = start - (s.code.lastIndexOf('\n', start - 1) + 1);
    const e = s.map.findEntry(line, column);
    if (e?.originalLine !== undefined) ranLines.add(`${tsFileOf(s.jsFile)}:${e.originalLine}`);
  }
}
function calleeRan(declaration) {
  let d = declaration;
  if (ts.isClassDeclaration(d)) d = d.members.find((m) => ts.isConstructorDeclaration(m));
  if (d && ts.isVariableDeclaration(d) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)))
    d = d.initializer;
  if (!d || !ts.isFunctionLike(d) || !d.body) return true; // an interface's member, a declared value: its call site decides
  const sf = d.getSourceFile();
  return [d.getStart(sf), d.name?.getStart(sf), d.body.getStart(sf)]
    .filter((p) => p !== undefined)
    .some((p) => ranLines.has(`${sf.fileName}:${sf.getLineAndCharacterOfPosition(p).line}`));
}

// ---- the crossings
const pairs = new Map();
const lines = [];
let sites = 0;
let calls = 0;
let executed = 0;
for (const s of scripts) {
  const tsFile = tsFileOf(s.jsFile);
  const ranges = s.functions.flatMap((fn) => fn.ranges);
  const countAt = (offset) => {
    let inner = null;
    for (const r of ranges)
      if (r.startOffset <= offset && offset < r.endOffset && (!inner || r.endOffset - r.startOffset <= inner.endOffset - inner.startOffset))
        inner = r;
    return inner ? inner.count : 0;
  };
  const js = ts.createSourceFile(s.jsFile, s.code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const visit = (n) => {
    if (isCall(n) && countAt(n.getStart(js)) > 0) {
      executed++;
      const count = countAt(n.getStart(js));
      const { line, character } = js.getLineAndCharacterOfPosition(n.getStart(js));
      const e = s.map.findEntry(line, character);
      const candidates = e?.originalLine !== undefined ? tsCalls.get(tsFile)?.get(`${e.originalLine}:${e.originalColumn}`) : undefined;
      // calls that begin at one place (f(x).g()) are told apart by the callee's name
      const call = candidates?.find((c) => calleeName(c) === calleeName(n)) ?? candidates?.at(-1);
      const declaration = call ? declarationOf(call) : null;
      const from = folderOf(tsFile);
      const to = declaration ? folderOf(declaration.getSourceFile().fileName) : null;
      if (to && to !== from && calleeRan(declaration)) {
        const pair = `${from} → ${to}`;
        const p = pairs.get(pair) ?? { sites: 0, calls: 0 };
        pairs.set(pair, { sites: p.sites + 1, calls: p.calls + count });
        sites++;
        calls += count;
        const callee = path.relative(srcDir, declaration.getSourceFile().fileName);
        lines.push(
          `  ${path.relative(srcDir, tsFile)}:${e.originalLine + 1}  ${call.expression.getText().slice(0, 60)}  → ${callee}  ×${count}`,
        );
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(js);
}
console.log(`call sites of src/ that ran: ${executed}`);
console.log(`layer crossings: ${sites} call sites, ${calls} calls, ${pairs.size} pairs of folders`);
for (const [pair, v] of [...pairs].sort((a, b) => b[1].calls - a[1].calls || a[0].localeCompare(b[0])))
  console.log(`  ${pair}: ${v.sites} sites, ${v.calls} calls`);
if (detail) console.log(lines.sort().join('\n'));
process.exit(0);
