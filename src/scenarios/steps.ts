// What each kind of step does. Control actions are thin wrappers over the control API
// (docs/control-api.md); `request` calls the public API as a principal; `expectWebhook` waits on the
// scenario's inbox. Every HTTP step answers its exchange, which the runner checks against `expect`.
import { SandboxApiError, seg } from '../client/transport.js';
import { generateCpf } from '../domain/documents.js';
import { deliveryReport } from './delivery-report.js';
import { match, type Mismatch } from './matcher.js';
import type { Inbox, ReceivedWebhook } from './receiver.js';
import { reportable, type HttpExchange } from './result.js';
import { StepError, type ScenarioState } from './state.js';
import type { StepKind } from '../schemas/scenario.js';

type Spec = Record<string, unknown>;

export interface HttpCall {
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** account | none | admin | merchant:<name> */
  as: string;
}

/** `pay: "<id>"` is short for `pay: {id: "<id>"}` */
const idSpec = (v: unknown, field = 'id'): Spec => (typeof v === 'string' ? { [field]: v } : (v as Spec));
const optional = (o: Spec, ...keys: string[]): Spec => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

function endpointOf(st: ScenarioState): string {
  if (!st.endpointId) throw new StepError('no webhook receiver for this scenario');
  return st.endpointId;
}

/** The sandbox's name of a scenario's snapshot: its own name and the run's id, so that runs in parallel never share one. */
export const snapshotOf = (name: unknown, st: ScenarioState): string => `${String(name)}.${st.runId}`;

function defaultAs(path: string): string {
  if (path.startsWith('/_sandbox')) return 'admin';
  if (path.startsWith('/v1/oauth')) return 'none';
  return 'account';
}

/** A key or rule a scenario adds: its tenant's own (docs/control-api.md#scoped-arrangements), seen by no other run. */
export const ownArrangement = (v: unknown, st: ScenarioState): Spec => ({ ...(v as Spec), accountId: (st.scope.account as Spec).id });

/** The HTTP call a step stands for, or null for steps that make none (receiver, expectWebhook). */
export function callOf(kind: StepKind, value: unknown, st: ScenarioState): HttpCall | null {
  const admin = (method: string, path: string, body?: unknown): HttpCall => ({ method, path, as: 'admin', ...(body !== undefined ? { body } : {}) });
  const v = value as Spec;
  switch (kind) {
    case 'request': {
      const path = String(v.path);
      return { method: String(v.method).toUpperCase(), path, as: (v.as as string | undefined) ?? defaultAs(path), ...optional(v, 'body', 'rawBody', 'headers') };
    }
    case 'pay': {
      const s = idSpec(value);
      return admin('POST', `/_sandbox/charges/${seg(String(s.id))}/pay`, optional(s, 'payer'));
    }
    case 'payCode':
      return admin('POST', '/_sandbox/pix/pay', idSpec(value, 'pixCode'));
    case 'expire':
    case 'cancel':
      return admin('POST', `/_sandbox/charges/${seg(String(idSpec(value).id))}/${kind}`);
    case 'complete':
      return admin('POST', `/_sandbox/transfers/${seg(String(idSpec(value).id))}/complete`);
    case 'fail': {
      const s = idSpec(value);
      return admin('POST', `/_sandbox/transfers/${seg(String(s.id))}/fail`, optional(s, 'code', 'message'));
    }
    case 'advance': {
      // only the scenario's own tenant moves (docs/scenarios.md#advance): other scenarios run on undisturbed
      const seconds = typeof value === 'object' && value !== null ? v.seconds : value;
      return admin('POST', '/_sandbox/clock/advance', { seconds: Number(seconds), accountId: (st.scope.account as Spec).id });
    }
    case 'credit': {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a scalar read from JSON
      const target = v.wallet ? `/_sandbox/wallets/${seg(String(v.wallet))}` : `/_sandbox/accounts/${seg(String(v.account ?? (st.scope.account as Spec).id))}`;
      return admin('POST', `${target}/credit`, { amount: Number(v.amount), ...optional(v, 'description') });
    }
    case 'addKey':
      return admin('POST', '/_sandbox/pix-keys', ownArrangement(v, st));
    case 'addRule':
      return admin('POST', '/_sandbox/rules', ownArrangement(v, st));
    case 'fire':
      return admin('POST', '/_sandbox/webhooks/fire', idSpec(value, 'transactionId'));
    // webhook faults and sends go to the scenario's own endpoint (its receiver)
    case 'webhookFault':
      return admin('POST', '/_sandbox/webhooks/faults', { ...v, endpointId: endpointOf(st) });
    case 'sendWebhook':
      return admin('POST', '/_sandbox/webhooks/send', { ...v, endpointId: endpointOf(st) });
    case 'expectReport':
      return admin('GET', `/_sandbox/report?accountId=${seg(String((st.scope.account as Spec).id))}`);
    case 'createMerchant': {
      const short = Math.floor(st.random() * 2 ** 32)
        .toString(16)
        .padStart(8, '0');
      const body = {
        name: `Merchant ${short}`,
        document: generateCpf(st.random),
        document_type: 'CPF',
        email: `merchant-${short}@example.com`,
        phone: '11987654321',
        ...(v ?? {}),
      };
      return { method: 'POST', path: '/v1/merchants', body, as: 'account' };
    }
    // a snapshot of the scenario's own tenant, and back to it
    case 'snapshot':
      return admin('POST', '/_sandbox/snapshots', { name: snapshotOf(value, st), accountId: (st.scope.account as Spec).id, replace: true });
    case 'restore':
      return admin('POST', `/_sandbox/snapshots/${seg(snapshotOf(value, st))}/restore`);
    case 'receiver':
    case 'expectWebhook':
    case 'expectNoWebhook':
      return null;
  }
}

/**
 * Sends the call as its principal; an automatic token that the tenant's clock expired (an advance), or
 * that a reset made stale (INVALID_TOKEN: its client was made again), is renewed once.
 */
export async function perform(call: HttpCall, st: ScenarioState): Promise<HttpExchange> {
  const transport = call.as === 'admin' ? st.env.client.transport : st.env.api;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(call.headers ?? {})) headers[k.toLowerCase()] = String(v);
  const auto = call.as !== 'none' && call.as !== 'admin' && headers.authorization === undefined;
  const go = async (fresh: boolean): Promise<HttpExchange> => {
    if (auto) headers.authorization = `Bearer ${await st.token(call.as, fresh)}`;
    const body = call.rawBody !== undefined ? { raw: call.rawBody } : call.body !== undefined ? { body: call.body } : {};
    return reportable(await transport.exchange(call.method, call.path, { headers, ...body }));
  };
  const ex = await go(false);
  const code = (ex.response.body as { error?: { code?: string } } | undefined)?.error?.code;
  if (auto && ex.response.status === 401 && (code === 'TOKEN_EXPIRED' || code === 'INVALID_TOKEN')) return go(true);
  return ex;
}

/** Checks an exchange against the step's `expect` (default: any 2xx). */
export function checkExchange(ex: HttpExchange, expect: { status?: unknown; body?: unknown; headers?: Record<string, unknown> } | undefined): StepError | null {
  const res = ex.response;
  if (!expect || expect.status === undefined) {
    if (res.status < 200 || res.status > 299) {
      const err = new SandboxApiError(ex.request.method, ex.request.url, res);
      return new StepError(`expected a 2xx answer, got ${res.status}${err.code ? ` ${err.code}` : ''}: ${err.reason}`, ex, [
        { path: '/status', expected: { $gte: 200, $lte: 299 }, actual: res.status, message: `got ${res.status}` },
      ]);
    }
  }
  const mismatches: Mismatch[] = [];
  if (expect?.status !== undefined) mismatches.push(...match(expect.status, res.status, '/status'));
  if (expect?.body !== undefined) mismatches.push(...match(expect.body, res.body, '/body', res.body !== undefined));
  if (expect?.headers) {
    const lower = Object.fromEntries(Object.entries(expect.headers).map(([k, x]) => [k.toLowerCase(), typeof x === 'number' || typeof x === 'boolean' ? String(x) : x]));
    mismatches.push(...match(lower, res.headers, '/headers'));
  }
  if (!mismatches.length) return null;
  const first = mismatches[0]!;
  const more = mismatches.length > 1 ? ` (and ${mismatches.length - 1} more)` : '';
  return new StepError(`${first.path}: ${first.message}${more}`, ex, mismatches);
}

/** Checks the report an expectReport step fetched: each named check has the outcome asked (docs/report.md). */
export function checkReport(ex: HttpExchange, spec: Record<string, string>): StepError | null {
  const err = checkExchange(ex, undefined);
  if (err) return err;
  const checks = (ex.response.body as { checks: { id: string; outcome: string; detail: string; evidence: unknown[] }[] }).checks;
  const mismatches: Mismatch[] = [];
  for (const [id, outcome] of Object.entries(spec)) {
    const c = checks.find((x) => x.id === id);
    if (c && c.outcome !== outcome)
      mismatches.push({
        path: `/checks/${id}/outcome`,
        expected: outcome,
        actual: c.outcome,
        message: `${id} is ${c.outcome}, expected ${outcome}${c.detail ? ` (${c.detail})` : ''}${c.evidence.length ? `; evidence ${c.evidence.join(', ')}` : ''}`,
      });
  }
  if (!mismatches.length) return null;
  const more = mismatches.length > 1 ? ` (and ${mismatches.length - 1} more)` : '';
  return new StepError(`${mismatches[0]!.message}${more}`, ex, mismatches);
}

type WebhookSpec = { type: string; data?: unknown; within?: number };

/** The first event an expectWebhook step would take (accepted, correctly signed, of the type, data matching, not consumed), waiting up to `ms`. */
function nextFitting(spec: WebhookSpec, inbox: Inbox, ms: number): Promise<ReceivedWebhook | null> {
  const fits = (h: ReceivedWebhook) =>
    !h.consumed &&
    h.signatureValid !== false &&
    h.event?.type === spec.type &&
    (spec.data === undefined || match(spec.data, h.event.data, '/data').length === 0);
  return inbox.waitFor((hits) => hits.find(fits), ms);
}

function inboxOf(st: ScenarioState): Inbox {
  if (!st.inbox) throw new StepError('no webhook receiver for this scenario');
  return st.inbox;
}

/** Passes when, for `within` seconds, no event that expectWebhook would take is or comes in the inbox. */
export async function expectNoWebhook(spec: WebhookSpec & { within: number }, st: ScenarioState): Promise<void> {
  const hit = await nextFitting(spec, inboxOf(st), spec.within * 1000);
  if (hit) throw new StepError(`a ${spec.type} event ${hit.event?.id ?? ''} arrived (at ${hit.receivedAt}), expected none within ${spec.within} s`);
}

/** Waits (bounded) for an accepted, correctly signed event of the type whose data matches; consumes it. */
export async function expectWebhook(spec: WebhookSpec, st: ScenarioState, defaultMs: number): Promise<ReceivedWebhook> {
  const inbox = inboxOf(st);
  const ms = spec.within !== undefined ? spec.within * 1000 : defaultMs;
  const hit = await nextFitting(spec, inbox, ms);
  if (hit) {
    hit.consumed = true;
    return hit;
  }
  // explain the miss: closest event of the same type, bad signatures, what did arrive, and what the sandbox's attempts got
  const sameType = inbox.accepted().filter((h) => !h.consumed && h.event?.type === spec.type);
  const badSig = inbox.hits.filter((h) => h.signatureValid === false);
  const seen = inbox.hits.map((h) => `${h.event?.type ?? '?'}→${h.answered}`).join(', ') || 'nothing';
  const parts = [`no ${spec.type} event${spec.data !== undefined ? ' with matching data' : ''} within ${ms / 1000} s (received: ${seen})`];
  if (badSig.length) parts.push(`${badSig.length} delivery(ies) had a bad signature: ${badSig[0]!.signatureProblem}`);
  parts.push(...(await deliveryReport(st, spec.type)));
  const closest = sameType.at(-1);
  const mismatches = closest && spec.data !== undefined ? match(spec.data, closest.event?.data, '/data') : undefined;
  throw new StepError(parts.join('; '), undefined, mismatches);
}
