// The facts the integration report judges (docs/report.md#what-it-reads), read for one tenant: its
// journal entries as kept (unredacted, in memory: only their numbers and ids leave, as evidence), its
// deliveries and sends, and its FAILED transfers and EXPIRED charges. One pass over the tenant's
// entries, each parsed once; the store's reads go through the indexes that name the tenant.
import type { AppContext } from '../context.js';
import type { DeliveryFact, Exchange, ReportFacts, SendFact } from '../domain/report.js';
import { accountStatusKey } from '../store/schema.js';
import { basicCredentials, bearerToken } from './auth.js';
import type { Kept } from './journal-ring.js';
import { TOKEN_PATH } from './tenant.js';

const CASH_OUT = '/v1/banking/cash-out/pix';

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
const field = (o: unknown, k: string): unknown =>
  o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>)[k] : undefined;
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** JSON text with every object's keys sorted: two bodies that differ only in key order are one. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** Retry-After as seconds: an integer, or an HTTP date counted from the answer's end. */
function retryAfterSeconds(value: string | null, answeredAtMs: number): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - answeredAtMs) / 1000);
}

/** A token request's client_id: HTTP Basic's, or its body's (JSON or form). */
function tokenClient(authorization: string | undefined, body: string | null): string | null {
  const basic = basicCredentials(authorization);
  if (basic && basic !== 'malformed') return basic.id;
  if (body === null) return null;
  return text(field(parse(body), 'client_id')) ?? new URLSearchParams(body).get('client_id');
}

/**
 * A header's value from the journal's JSON text of the request's headers, without parsing all of it:
 * names are JSON keys (node lower-cases them) and a quote inside a value is escaped, so `"name":` is
 * found only as a key. Null when absent or not one string.
 */
function headerOf(json: string, name: string): string | null {
  const key = `"${name}":"`;
  const at = json.indexOf(key);
  if (at < 0) return null;
  let end = at + key.length;
  while (end < json.length && json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
  try {
    return JSON.parse(json.slice(at + key.length - 1, end + 1)) as string;
  } catch {
    return null;
  }
}

/** The exchanges of one tenant's journal, oldest first, each with the client it came from. */
function exchangesOf(kept: Iterable<Kept>): Exchange[] {
  const newest = [...kept];
  const out: Exchange[] = new Array<Exchange>(newest.length);
  // tokens are issued before they are used: walking oldest first, each bearer token finds its client
  const clientOfToken = new Map<string, string>();
  for (let i = newest.length - 1; i >= 0; i--) {
    const k = newest[i]!;
    // only the texts a check reads, each decoded once
    const method = k.text('method')!;
    const path = k.text('url')!.split('?', 1)[0]!;
    const headers = k.text('headers')!;
    const authorization = headerOf(headers, 'authorization') ?? undefined;
    const tokenRequest = method === 'POST' && path === TOKEN_PATH;
    const cashOut = method === 'POST' && path === CASH_OUT;
    const body = tokenRequest || cashOut ? k.text('body') : null;
    // an answer is read only for what the checks take from it: an error's code, a token's value
    const answer = k.status >= 400 || tokenRequest ? answerOf(k) : null;
    let client: string;
    if (tokenRequest) {
      client = tokenClient(authorization, body) ?? 'unknown client';
      const issued = text(field(answer, 'access_token'));
      if (issued !== null) clientOfToken.set(issued, client);
    } else {
      const token = bearerToken(authorization);
      client = token ? (clientOfToken.get(token) ?? `a token issued before the journal's first entry`) : 'no token';
    }
    const error = field(answer, 'error');
    out[newest.length - 1 - i] = {
      seq: k.seq,
      atMs: k.atMs,
      clockMs: k.clockMs,
      durationMs: k.durationMs,
      method,
      path,
      status: k.status,
      client,
      tokenRequest,
      idempotencyKey: headerOf(headers, 'x-idempotency-key'),
      cashOutBody: cashOut && body !== null ? canonical(parse(body) ?? body) : null,
      errorCode: k.status < 400 ? null : (text(field(error, 'code')) ?? text(error)),
      retryAfterS: retryAfterSeconds(k.text('retryAfter'), k.atMs + k.durationMs),
      plain: k.plain,
      injected: k.injected,
    };
  }
  return out;
}

const answerOf = (k: Kept): unknown => {
  const type = k.text('contentType');
  return type && /json/i.test(type) ? parse(k.text('response')) : null;
};

/** Everything the checks read about `accountId`. */
export function reportFacts(ctx: AppContext, accountId: string): ReportFacts {
  const data = ctx.store;
  const endpoints = [...data.webhookEndpoints.find('byAccount', accountId)];
  const deliveries: DeliveryFact[] = [];
  for (const e of endpoints)
    for (const d of data.deliveries.find('byEndpoint', e.id))
      deliveries.push({
        id: d.id,
        fault: d.fault?.action ?? null,
        attempts: d.attempts.map((a) => ({
          statusCode: a.statusCode,
          error: a.error,
          durationMs: a.durationMs,
          fault: a.fault?.action ?? null,
        })),
      });
  const sends: SendFact[] = [...data.webhookSends.find('byAccount', accountId)].map((s) => ({
    id: s.id,
    signature: s.signature,
    audit: s.audit === true,
    statusCode: s.attempt.statusCode,
  }));
  const ids = (status: string) => [...data.transactions.find('byAccountStatus', accountStatusKey(accountId, status))].map((t) => t.id);
  return {
    exchanges: exchangesOf(ctx.journal.exchanges(accountId)),
    deliveries,
    sends,
    hasEndpoint: endpoints.length > 0,
    httpsOn: ctx.config.httpsPort !== null,
    failedTransfers: ids('FAILED'),
    expiredCharges: ids('EXPIRED'),
  };
}
