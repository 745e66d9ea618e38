// Finding, parsing and validating scenario files. Nothing runs unless every file is valid; each
// problem names the file, the step (number and name) and the field as a JSON Pointer.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
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
}

export const SCENARIO_EXTENSIONS = ['.yaml', '.yml', '.json'];
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
  const step = p.step === undefined ? '' : ` step ${p.step + 1}${p.stepName ? ` "${p.stepName}"` : ''},`;
  return `${p.file}:${step} field ${p.pointer || '/'}: ${p.message}`;
}

/** Expands the command-line arguments (files or folders, searched recursively) into scenario files. */
export async function collectFiles(args: string[]): Promise<{ files: string[]; problems: LoadProblem[] }> {
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
    let message = e.message ?? 'is invalid';
    const custom: unknown = e.parentSchema?.['x-message'];
    if (e.keyword === 'required') {
      pointer += `/${(e.params as { missingProperty: string }).missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      pointer += `/${(e.params as { additionalProperty: string }).additionalProperty}`;
      message = 'is not a known field';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (e.keyword === 'oneOf' && /^\/steps\/\d+$/.test(pointer)) {
      const step = (e.data ?? {}) as Record<string, unknown>;
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

/** Every `${name...}` reference and `as: merchant:<name>` must name something saved by an earlier step. */
function referenceProblems(file: string, sc: Scenario): LoadProblem[] {
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
  sc.steps.forEach((step: Step, i) => {
    const { save, ...rest } = step;
    scan(rest, `/steps/${i}`, saved);
    const as = (step.request as { as?: string } | undefined)?.as;
    if (as?.startsWith('merchant:') && !saved.has(as.slice('merchant:'.length)))
      problems.push(withStep({ file, pointer: `/steps/${i}/request/as`, message: `${as} needs an earlier step with save: ${as.slice(9)} (createMerchant or POST /v1/merchants)` }, sc));
    if (save) saved.add(save);
    if ((stepKindOf(step) === 'expectWebhook' || stepKindOf(step) === 'receiver') && step.eventually !== undefined)
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
    if (parsed.errors.length) return { problems: parsed.errors.map((e) => ({ file, pointer: '', message: `not valid YAML: ${e.message.split('\n')[0]}` })) };
    doc = parsed.toJS();
  }
  const validate = validator();
  if (!validate(doc)) return { problems: schemaProblems(file, doc, validate.errors ?? []) };
  const scenario = doc as Scenario;
  const problems = referenceProblems(file, scenario);
  return problems.length ? { problems } : { loaded: { file, scenario }, problems: [] };
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
