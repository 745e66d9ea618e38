// The integration report (docs/report.md): what an app under test did, judged check by check. Pure: the
// facts come in as plain data (src/http/report-facts.ts reads them from the journal and the store), each
// check is a function of them (./report-checks.ts), and the answer is plain data too. Every check reads
// the facts once or a few times over: the report costs the tenant's entries, not their square.
import type { FailureMode, ReportCheckId, ReportOutcome, SendSignature, WebhookFaultAction } from './vocabulary.js';

/** One exchange of the journal as the checks see it (docs/report.md#what-it-reads). */
export interface Exchange {
  seq: number;
  /** real time the request arrived, epoch ms (the app's pace: Retry-After, polling) */
  atMs: number;
  /** the tenant's clock at the answer, epoch ms (token lifetimes) */
  clockMs: number;
  durationMs: number;
  method: string;
  /** the path, without its query string */
  path: string;
  status: number;
  /** the client it came from: a token request's client_id, or the client a bearer token was issued to (else the token) */
  client: string;
  /** a token request (POST /v1/oauth/token) */
  tokenRequest: boolean;
  /** x-idempotency-key, as sent */
  idempotencyKey: string | null;
  /** a cash-out's body as canonical JSON text (keys sorted), to compare two of them; null for any other request */
  cashOutBody: string | null;
  /** the answer's error code (error.code, or the token endpoint's `error`), null for a success */
  errorCode: string | null;
  /** seconds the answer's Retry-After asked for, null when it carried none */
  retryAfterS: number | null;
  /** came over plain HTTP */
  plain: boolean;
  /** answered by an injected fault */
  injected: boolean;
}

/** One webhook delivery of the tenant's: the fault that shaped it, and its attempts. */
export interface DeliveryFact {
  id: string;
  fault: WebhookFaultAction | null;
  attempts: { statusCode: number | null; error: string | null; durationMs: number; fault: WebhookFaultAction | null }[];
}

/** One entry of the send log (POST /_sandbox/webhooks/send, or the audit's). */
export interface SendFact {
  id: string;
  signature: SendSignature;
  audit: boolean;
  statusCode: number | null;
}

/** Everything the checks read about one tenant. */
export interface ReportFacts {
  /** oldest first */
  exchanges: Exchange[];
  deliveries: DeliveryFact[];
  sends: SendFact[];
  /** the tenant has a webhook endpoint (polling is then needless) */
  hasEndpoint: boolean;
  /** the sandbox has an HTTPS listener */
  httpsOn: boolean;
  /** ids of the tenant's FAILED transfers and EXPIRED charges */
  failedTransfers: string[];
  expiredCharges: string[];
}

/** A journal seq, a delivery id or a send id. */
export type Evidence = number | string;

export interface CheckResult {
  id: ReportCheckId;
  title: string;
  outcome: ReportOutcome;
  /** what the check counted (tokens, retries, 429s, lookups, deliveries, …: docs/report.md names it per check) */
  count: number;
  evidence: Evidence[];
  /** one sentence: what to change (or how to exercise the check) */
  advice: string;
  /** a link into the repository's docs */
  docs: string;
  /** one sentence of specifics: the codes counted, the modes not met */
  detail: string;
}

/** What a check decides; the rest of its result comes from CHECK_TEXTS. */
export interface Verdict {
  outcome: ReportOutcome;
  count: number;
  evidence: Evidence[];
  detail: string;
}

/** The words of each check: its title, the advice when it fails or warns, and how to exercise it. */
const CHECK_TEXTS: Record<ReportCheckId, { title: string; advice: string; exercise: string }> = {
  'token-reuse': {
    title: 'Access tokens are reused for their lifetime',
    advice: 'Cache the access token and request a new one only when it is about to expire or a call answers 401 TOKEN_EXPIRED.',
    exercise: 'Request a token and call the API with it.',
  },
  'expired-token-recovery': {
    title: 'An expired token is replaced and the call repeated',
    advice: 'On 401 TOKEN_EXPIRED, request a new token and send the same request again.',
    exercise: 'Advance the clock past a token lifetime (POST /_sandbox/clock/advance) while the app holds a token.',
  },
  'idempotent-retry': {
    title: 'A failed cash-out is retried under the same idempotency key',
    advice: 'Keep the x-idempotency-key of a cash-out and send it again with every retry of that cash-out.',
    exercise: 'Inject a 503 or 429 fault on POST /v1/banking/cash-out/pix and let the app retry.',
  },
  'idempotency-key-reuse': {
    title: 'An idempotency key is never reused for another cash-out',
    advice: 'Make a new x-idempotency-key for each new cash-out, and reuse one only to retry that same cash-out.',
    exercise: 'Make a cash-out.',
  },
  'retry-after': {
    title: 'Retry-After is honoured after a 429',
    advice: 'After a 429, wait the seconds its Retry-After asks for (at least 1 s without one) before the next request.',
    exercise: 'Inject a 429 fault and let the app retry.',
  },
  polling: {
    title: 'Transaction status comes from webhooks, not polling',
    advice: 'Learn a transaction’s outcome from its webhook and look it up only to confirm, not in a loop.',
    exercise: 'Look a transaction up (GET /v1/banking/transactions/{id}).',
  },
  'webhook-ack': {
    title: 'Webhooks are acknowledged with 2xx within 5 s',
    advice: 'Answer each webhook with 2xx within 5 seconds and do the slow work after answering.',
    exercise: 'Register a webhook endpoint and make a transaction that sends an event.',
  },
  'webhook-signature': {
    title: 'Webhooks with a bad or stale signature are refused',
    advice: 'Verify x-sandbox-signature over the raw body with the endpoint secret and refuse a timestamp older than 5 minutes.',
    exercise: 'Run the webhook probe (report?probe=true or POST /_sandbox/webhooks/audit).',
  },
  'validation-errors': {
    title: 'Requests pass validation',
    advice: 'Validate requests before sending them, as docs/api.md#errors describes each rule.',
    exercise: 'Call the API.',
  },
  'plain-http': {
    title: 'The API is called over HTTPS',
    advice: 'Call the API over HTTPS: the provider accepts nothing else.',
    exercise: 'Start the sandbox with HTTPS on and call the API.',
  },
  'failure-coverage': {
    title: 'The app met every failure mode',
    advice: 'Arrange the failure modes not met (faults, rules, webhook faults, the probe) in the app’s tests.',
    exercise: 'Run the app’s tests against the sandbox.',
  },
};

const PASS_ADVICE = 'Nothing to change.';

/** A check's result from its verdict: the advice that fits its outcome. */
export function resultOf(id: ReportCheckId, v: Verdict): CheckResult {
  const text = CHECK_TEXTS[id];
  const advice = v.outcome === 'pass' ? PASS_ADVICE : v.outcome === 'not-exercised' ? text.exercise : text.advice;
  return { id, title: text.title, ...v, advice, docs: `docs/report.md#${id}` };
}

/** The modes failure-coverage counts, each with the evidence that it was met (empty: not met). */
export type Coverage = Record<FailureMode, Evidence[]>;
