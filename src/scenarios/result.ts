// What a scenario run produces; every reporter reads only these shapes.
import { isSecretName } from '../http/redact.js';
import type { Exchange, RawResponse, SentRequest } from '../client/transport.js';
import type { Mismatch } from './matcher.js';

/** One HTTP exchange as reports show it: what was sent, and the answer with its body parsed. */
export interface HttpExchange {
  request: SentRequest;
  response: Omit<RawResponse, 'text'>;
  durationMs: number;
}

export function reportable(ex: Exchange): HttpExchange {
  const { text: _text, ...response } = ex.response;
  return { request: ex.request, response, durationMs: ex.durationMs };
}

export interface StepFailure {
  message: string;
  /** expected versus actual, one entry per differing value (JSON Pointers into the exchange) */
  mismatches?: Mismatch[];
  /** the exchange that failed, credentials redacted */
  exchange?: HttpExchange;
}

export interface StepResult {
  /** 0-based */
  index: number;
  name: string;
  kind: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  /** `GET /v1/... → 200`, for the log */
  summary?: string;
  failure?: StepFailure;
}

export interface ScenarioResult {
  file: string;
  name: string;
  status: 'passed' | 'failed';
  durationMs: number;
  /** the tenant created for this run */
  accountId: string | null;
  /** setting up the tenant, receiver or fixtures failed: no step ran */
  setupFailure?: StepFailure;
  steps: StepResult[];
}

export interface RunResult {
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  concurrency: number;
  scenarios: ScenarioResult[];
}

export const countOf = (r: RunResult) => {
  const failed = r.scenarios.filter((s) => s.status === 'failed').length;
  return { total: r.scenarios.length, passed: r.scenarios.length - failed, failed };
};

/**
 * Credentials never reach a report: a header, or a field of a body at any depth, is secret by the one
 * rule of the journal (src/http/redact.ts isSecretName: client_secret, access_token, x-api-key,
 * password, pin…); an Authorization header keeps its scheme. A report marks them `***`.
 */
function redactHeaders(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    out[k] = k.toLowerCase() === 'authorization' ? v.replace(/^(\w+)\s+.*$/, '$1 ***') : isSecretName(k) ? '***' : v;
  return out;
}

export function redactExchange(ex: HttpExchange): HttpExchange {
  const scrub = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(scrub) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isSecretName(k) ? '***' : scrub(x)])) : v;
  return {
    ...ex,
    request: { ...ex.request, headers: redactHeaders(ex.request.headers), ...(ex.request.body !== undefined ? { body: scrub(ex.request.body) } : {}) },
    response: { ...ex.response, body: scrub(ex.response.body) },
  };
}
