// Finding, parsing and validating scenario files. Nothing runs unless every file is valid; each
// problem names the file, the step (number and name) and the field as a JSON Pointer.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parseDocument, type YAMLError } from 'yaml';
import { ownWords } from '../schemas/validator.js';
import { scenarioSchema, STEP_KINDS, stepKindOf, type Scenario, type Step } from '../schemas/scenario.js';

export interface LoadedScenario {
  file: string;
  scenario: Scenario;
}

export interface LoadProblem {
  file: string;
  /** 0-based index of the step, when the problem is inside one */
  step?: number;
  stepName?: string;
  /** JSON Pointer into the file's document */
  pointer: string;
  message: string;
  /** where in the text (1-based), for a syntax error, with the lines around it and a caret */
  at?: { line: number; column: number; snippet: string[] };
}

const SCENARIO_EXTENSIONS = ['.yaml', '.yml', '.json'];
const BUILTIN_SCOPES = new Set(['vars', 'account', 'scenario']);

// compiled on first use, so that other commands never pay for it
let validateFn: ValidateFunction | null = null;
function validator(): ValidateFunction {
  if (!validateFn) {
    // strictRequired is off: a step's `oneOf: [{required: [kind]}]` names properties declared beside it
    const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
    ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
    validateFn = ajv.compile(scenarioSchema);
  }
  return validateFn;
}

export function describeProblem(p: LoadProblem): string {
  if (p.at) return [`${p.file}:${p.at.line}:${p.at.column}: ${p.message}`, ...p.at.snippet].join('\n');
  const step = p.step === undefined ? '' : ` step ${p.step + 1}${p.stepName ? ` "${p.stepName}"` : ''},`;
  return `${p.file}:${step} field ${p.pointer || '/'}: ${p.message}`;
}

/** The line of a syntax error and the one before it, numbered, with a caret under the column. */
function snippetAt(text: string, line: number, column: number): string[] {
  const lines = text.split(/\r?\n/);
  const width = String(line).length;
  const out: string[] = [];
  for (let n = Math.max(1, line - 1); n <= line; n++) out.push(`  ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`);
  // a tab before the column stays a tab under it, so that the caret lines up however tabs are shown
  const lead = [...(lines[line - 1] ?? '').slice(0, column - 1)].map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
  out.push(`  ${' '.repeat(width)} | ${lead}^`);
  return out;
}

function yamlProblem(file: string, text: string, e: YAMLError): LoadProblem {
  const reason = e.message.split(/ at line \d+, column \d+/)[0]!.split('\n')[0]!;
  const pos = e.linePos?.[0];
  return {
    file,
    pointer: '',
    message: `not valid YAML: ${reason}`,
    ...(pos ? { at: { line: pos.line, column: pos.col, snippet: snippetAt(text, pos.line, pos.col) } } : {}),
  };
}

/** Expands the command-line arguments (files or folders, searched recursively) into scenario files. */
async function collectFiles(args: string[]): Promise<{ files: string[]; problems: LoadProblem[] }> {
  const files: string[] = [];
  const problems: LoadProblem[] = [];
  const walk = async (dir: string) => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (SCENARIO_EXTENSIONS.includes(path.extname(e.name).toLowerCase())) files.push(p);
    }
  };
  for (const arg of args) {
    try {
      const s = await stat(arg);
      if (s.isDirectory()) await walk(arg);
      else files.push(arg);
    } catch {
      problems.push({ file: arg, pointer: '', message: 'no such file or folder' });
    }
  }
  if (!problems.length && !files.length) problems.push({ file: args.join(' '), pointer: '', message: `no scenario files (${SCENARIO_EXTENSIONS.join(', ')}) found` });
  return { files: [...new Set(files)], problems };
}

function schemaProblems(file: string, doc: unknown, errors: ErrorObject[]): LoadProblem[] {
  // a failed anyOf/oneOf answers with its own message; its branches' complaints are noise
  const umbrellas = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath + '/');
  const out: LoadProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (umbrellas.some((u) => e.schemaPath.startsWith(u))) continue;
    let pointer = e.instancePath;
    let message = ownWords(e);
    const custom: unknown = e.parentSchema?.['x-message'];
    if (e.keyword === 'required') {
      pointer += `/${(e.params as { missingProperty: string }).missingProperty}`;
    } else if (e.keyword === 'additionalProperties') {
      pointer += `/${(e.params as { additionalProperty: string }).additionalProperty}`;
    } else if (e.keyword === 'oneOf' && /^\/steps\/\d+$/.test(pointer)) {
      // a step that is not even an object is named by its type error alone
      if (e.data === null || typeof e.data !== 'object' || Array.isArray(e.data)) continue;
      const step = e.data as Record<string, unknown>;
      const found = STEP_KINDS.filter((k) => step[k] !== undefined);
      message = found.length
        ? `a step takes exactly one action, found ${found.join(' and ')}`
        : `a step needs one action: ${STEP_KINDS.join(', ')}`;
    } else if (typeof custom === 'string') {
      message = custom;
    }
    const key = `${pointer}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(withStep({ file, pointer, message }, doc));
  }
  return out;
}

function withStep(p: LoadProblem, doc: unknown): LoadProblem {
  const m = /^\/steps\/(\d+)/.exec(p.pointer);
  if (!m) return p;
  const index = Number(m[1]);
  const step = (doc as { steps?: unknown[] }).steps?.[index] as { name?: unknown } | undefined;
  return { ...p, step: index, ...(typeof step?.name === 'string' ? { stepName: step.name } : {}) };
}

/**
 * Every `${name...}` reference and `as: merchant:<name>` must name something saved by an earlier step.
 * Runs on files the schema refused too, so it trusts no shape: what is not as expected is the schema's to name.
 */
function referenceProblems(file: string, sc: Partial<Scenario>): LoadProblem[] {
  const problems: LoadProblem[] = [];
  const saved = new Set<string>();
  const scan = (value: unknown, pointer: string, known: Set<string>) => {
    if (typeof value === 'string') {
      for (const m of value.matchAll(/(?<!\$)\$\{\s*([^}.\s]+)/g)) {
        const head = m[1]!;
        if (head.startsWith('$') || BUILTIN_SCOPES.has(head) || known.has(head)) continue;
        problems.push(withStep({ file, pointer, message: `\${${head}...} refers to nothing saved by an earlier step (save: ${head})` }, sc));
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => scan(v, `${pointer}/${i}`, known));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) scan(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, known);
  };
  scan(sc.vars ?? {}, '/vars', new Set());
  scan(sc.fixtures ?? {}, '/fixtures', new Set());
  (Array.isArray(sc.steps) ? sc.steps : []).forEach((step: Step, i) => {
    if (step === null || typeof step !== 'object' || Array.isArray(step)) return;
    const { save, ...rest } = step;
    scan(rest, `/steps/${i}`, saved);
    const as: unknown = (step.request as { as?: unknown } | null | undefined)?.as;
    if (typeof as === 'string' && as.startsWith('merchant:') && !saved.has(as.slice('merchant:'.length)))
      problems.push(withStep({ file, pointer: `/steps/${i}/request/as`, message: `${as} needs an earlier step with save: ${as.slice(9)} (createMerchant or POST /v1/merchants)` }, sc));
    if (typeof save === 'string') saved.add(save);
    if (['expectWebhook', 'expectNoWebhook', 'receiver'].includes(stepKindOf(step)) && step.eventually !== undefined)
      problems.push(withStep({ file, pointer: `/steps/${i}/eventually`, message: `${stepKindOf(step)} makes no call to repeat (expectWebhook waits on its own: use within)` }, sc));
    if (stepKindOf(step) === 'expectWebhook' && step.expect)
      problems.push(withStep({ file, pointer: `/steps/${i}/expect`, message: 'expectWebhook takes its matcher in expectWebhook.data, not expect' }, sc));
  });
  return problems;
}

export async function loadScenario(file: string): Promise<{ loaded?: LoadedScenario; problems: LoadProblem[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { problems: [{ file, pointer: '', message: `cannot read the file: ${(e as Error).message}` }] };
  }
  let doc: unknown;
  if (path.extname(file).toLowerCase() === '.json') {
    try {
      doc = JSON.parse(text);
    } catch (e) {
      return { problems: [{ file, pointer: '', message: `not valid JSON: ${(e as Error).message}` }] };
    }
  } else {
    const parsed = parseDocument(text, { prettyErrors: true });
    if (parsed.errors.length) return { problems: parsed.errors.map((e) => yamlProblem(file, text, e)) };
    doc = parsed.toJS();
  }
  const validate = validator();
  const problems = validate(doc) ? [] : schemaProblems(file, doc, validate.errors ?? []);
  // the rules beyond the schema run on an invalid file too: one run names every mistake
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const faulted = new Set(problems.map((p) => p.pointer));
    for (const p of referenceProblems(file, doc)) if (!faulted.has(p.pointer)) problems.push(p);
  }
  // in the order of the file: the scenario's own fields, then step by step
  problems.sort((a, b) => (a.step ?? -1) - (b.step ?? -1));
  return problems.length ? { problems } : { loaded: { file, scenario: doc as Scenario }, problems: [] };
}

/** Loads every file; a problem in any of them means nothing runs. */
export async function loadAll(args: string[]): Promise<{ scenarios: LoadedScenario[]; problems: LoadProblem[] }> {
  const { files, problems } = await collectFiles(args);
  const scenarios: LoadedScenario[] = [];
  for (const f of files) {
    const r = await loadScenario(f);
    problems.push(...r.problems);
    if (r.loaded) scenarios.push(r.loaded);
  }
  return { scenarios, problems };
}
