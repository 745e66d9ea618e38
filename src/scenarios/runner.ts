// Runs one scenario in its own tenant: create the account (credentials come back once), register
// the webhook receiver for it, load the scenario's fixtures (its PIX keys and rules are the tenant's
// own: docs/control-api.md#scoped-arrangements), run the steps in order until one fails, then remove
// what it arranged (its keys, rules, HTTP faults, the webhook endpoint and faults; the tenant stays).
import { randomUUID } from 'node:crypto';
import { NetworkError, seg } from '../client/transport.js';
import { SCOPED_ARRANGEMENTS } from '../domain/vocabulary.js';
import { stepKindOf, type Scenario, type Step } from '../schemas/scenario.js';
import { interpolate, InterpolationError } from './interpolate.js';
import type { LoadedScenario } from './load.js';
import type { WebhookReceiver } from './receiver.js';
import { redactExchange, type HttpExchange, type ScenarioResult, type StepFailure, type StepResult } from './result.js';
import { ScenarioState, StepError, type RunEnv } from './state.js';
import { callOf, checkExchange, checkReport, expectNoWebhook, expectWebhook, ownArrangement, perform, snapshotOf } from './steps.js';

function stepName(step: Step, index: number): string {
  if (step.name) return step.name;
  const kind = stepKindOf(step);
  const v = step[kind];
  if (kind === 'request') return `${(v as { method: string }).method.toUpperCase()} ${(v as { path: string }).path}`;
  if (kind === 'expectWebhook') return `expect webhook ${(v as { type: string }).type}`;
  if (kind === 'expectNoWebhook') return `expect no webhook ${(v as { type: string }).type}`;
  if (kind === 'expectReport') return `expect report ${Object.entries(v as object).map(([id, o]) => `${id} ${String(o)}`).join(', ')}`;
  return `${kind} (step ${index + 1})`;
}

function failureOf(e: unknown): StepFailure {
  if (e instanceof StepError)
    return { message: e.message, ...(e.mismatches?.length ? { mismatches: e.mismatches } : {}), ...(e.exchange ? { exchange: redactExchange(e.exchange) } : {}) };
  if (e instanceof NetworkError || e instanceof InterpolationError) return { message: e.message };
  return { message: `unexpected error: ${(e as Error).stack ?? String(e)}` };
}

/** A control call during set-up; a failure stops the scenario before its first step. */
async function setupCall(st: ScenarioState, method: string, path: string, body: unknown, what: string): Promise<Record<string, unknown>> {
  const ex = await perform({ method, path, body, as: 'admin' }, st);
  const err = checkExchange(ex, undefined);
  if (err) throw new StepError(`${what}: ${err.message}`, ex);
  return (ex.response.body ?? {}) as Record<string, unknown>;
}

const WEBHOOK_STEPS = ['expectWebhook', 'expectNoWebhook', 'receiver', 'webhookFault', 'sendWebhook'] as const;
const usesWebhooks = (sc: Scenario) => sc.steps.some((s) => WEBHOOK_STEPS.some((k) => s[k] !== undefined));

async function setUp(loaded: LoadedScenario, st: ScenarioState, receiver: WebhookReceiver | null, runId: string): Promise<string> {
  const sc = loaded.scenario;
  const settings = sc.fixtures?.account ?? {};
  const account = await setupCall(st, 'POST', '/_sandbox/accounts', { name: `${sc.name} [${runId}]`.slice(0, 140), ...settings }, 'creating the scenario account');
  const creds = { client_id: String(account.client_id), client_secret: String(account.client_secret) };
  st.scope.account = { id: account.id, name: account.name, ...creds };
  st.scope.scenario = { id: runId, name: sc.name, file: loaded.file };
  st.principals.set('account', creds);
  const vars: Record<string, unknown> = {};
  st.scope.vars = vars;
  for (const [k, v] of Object.entries(sc.vars ?? {})) vars[k] = interpolate(v, st.scope);

  if (receiver && usesWebhooks(sc)) {
    const { inbox, url } = receiver.open(runId);
    st.inbox = inbox;
    const ep = await setupCall(st, 'POST', '/_sandbox/webhooks', { url, accountId: account.id }, 'registering the webhook receiver');
    inbox.secret = String(ep.secret);
    st.endpointId = String(ep.id);
    st.cleanup.push({ method: 'DELETE', path: `/_sandbox/webhooks/${seg(String(ep.id))}` });
    // webhook faults of the tenant that a webhookFault step left unspent (the tenant itself stays)
    st.cleanup.push({ method: 'DELETE', path: `/_sandbox/webhooks/faults?accountId=${seg(String(account.id))}` });
  }
  // what the scenario arranges is its tenant's own: no other scenario sees it, and it goes after the run
  const mine = `?accountId=${seg(String(account.id))}`;
  for (const what of SCOPED_ARRANGEMENTS) st.cleanup.push({ method: 'DELETE', path: `/_sandbox/${what}${mine}` });
  for (const key of sc.fixtures?.pixKeys ?? [])
    await setupCall(st, 'POST', '/_sandbox/pix-keys', ownArrangement(interpolate(key, st.scope), st), `adding pix key ${String(key.key)}`);
  for (const rule of sc.fixtures?.rules ?? [])
    await setupCall(st, 'POST', '/_sandbox/rules', ownArrangement(interpolate(rule, st.scope), st), 'adding a rule');
  return String(account.id);
}

async function runStep(step: Step, index: number, st: ScenarioState, sc: Scenario): Promise<StepResult> {
  const started = performance.now();
  const kind = stepKindOf(step);
  const result: StepResult = { index, name: stepName(step, index), kind, status: 'passed', durationMs: 0 };
  try {
    const { save, ...raw } = step;
    const s = interpolate(raw, st.scope) as Step;
    let saved: { status?: number; headers?: Record<string, string>; body?: unknown } | null = null;
    if (kind === 'receiver') {
      const r = s.receiver as { failNext?: number; status?: number; dedupe?: boolean };
      if (!st.inbox) throw new StepError('no webhook receiver for this scenario');
      const said: string[] = [];
      if (r.failNext !== undefined) {
        st.inbox.failNext = r.failNext;
        st.inbox.failStatus = r.status ?? 500;
        said.push(`fails the next ${r.failNext} deliveries with ${st.inbox.failStatus}`);
      }
      if (r.dedupe !== undefined) {
        st.inbox.dedupe = r.dedupe;
        said.push(r.dedupe ? 'ignores an event id it has already taken' : 'takes every copy');
      }
      result.summary = `receiver ${said.join(', ')}`;
    } else if (kind === 'expectNoWebhook') {
      const spec = s.expectNoWebhook as { type: string; within: number };
      await expectNoWebhook(spec, st);
      result.summary = `no ${spec.type} within ${spec.within} s`;
    } else if (kind === 'expectWebhook') {
      const defaultMs = sc.webhookTimeout !== undefined ? sc.webhookTimeout * 1000 : st.env.webhookTimeoutMs;
      const hit = await expectWebhook(s.expectWebhook as { type: string }, st, defaultMs);
      saved = { headers: hit.headers, body: hit.event };
      result.summary = `received ${hit.event?.type} ${hit.event?.id ?? ''}`.trim();
    } else {
      const call = callOf(kind, s[kind], st)!;
      // `eventually`: repeat the call until `expect` holds (for work the sandbox does in the background)
      const deadline = performance.now() + (step.eventually ?? 0) * 1000;
      let ex: HttpExchange;
      let err: StepError | null;
      for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
        ex = await perform(call, st);
        err = kind === 'expectReport' ? checkReport(ex, s.expectReport as Record<string, string>) : checkExchange(ex, s.expect);
        if (!err || performance.now() + pause > deadline) break;
        await new Promise((r) => setTimeout(r, pause));
      }
      result.summary = `${call.method} ${call.path} → ${ex.response.status}`;
      if (err) throw step.eventually ? new StepError(`still after ${step.eventually} s: ${err.message}`, err.exchange, err.mismatches) : err;
      saved = ex.response;
      if (kind === 'snapshot' && ex.response.status < 300) st.cleanup.push({ method: 'DELETE', path: `/_sandbox/snapshots/${seg(snapshotOf(s.snapshot, st))}` });
    }
    if (save && saved) st.save(save, saved);
  } catch (e) {
    result.status = 'failed';
    result.failure = failureOf(e);
  }
  result.durationMs = Math.round(performance.now() - started);
  return result;
}

export async function runScenario(loaded: LoadedScenario, env: RunEnv, receiver: WebhookReceiver | null): Promise<ScenarioResult> {
  const started = performance.now();
  const sc = loaded.scenario;
  const runId = randomUUID().replace(/-/g, '').slice(0, 12);
  const st = new ScenarioState(env, runId);
  const result: ScenarioResult = { file: loaded.file, name: sc.name, status: 'passed', durationMs: 0, accountId: null, steps: [] };
  try {
    result.accountId = await setUp(loaded, st, receiver, runId);
  } catch (e) {
    result.setupFailure = failureOf(e);
    result.status = 'failed';
  }
  for (const [i, step] of sc.steps.entries()) {
    if (result.status === 'failed') {
      result.steps.push({ index: i, name: stepName(step, i), kind: stepKindOf(step), status: 'skipped', durationMs: 0 });
      continue;
    }
    const r = await runStep(step, i, st, sc);
    result.steps.push(r);
    if (r.status === 'failed') result.status = 'failed';
  }
  for (const c of st.cleanup.reverse()) await perform({ ...c, as: 'admin' }, st).catch(() => undefined);
  receiver?.close(runId);
  result.durationMs = Math.round(performance.now() - started);
  return result;
}
