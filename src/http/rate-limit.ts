// The rate limit stage (docs/api.md#rate-limits, docs/decisions.md#d80-rate-limits-per-client). A route
// stage, not a pipeline one: it runs once the client is known, right after a bearer operation has
// authenticated its token (the client is the token's), or after the token endpoint has read its body
// (the client is the request's client_id, known to the sandbox, before its secret is checked). So
// injected faults (the pipeline's, earlier) answer before it and spend no token; the journal, first of
// all, records its 429s. Control calls (/_sandbox) and the charge locations (/pix) have no client: never
// limited. A tenant without `rateLimit` costs one field read.
import type { RequestHandler, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import { apiBucket, tokenBucket, type Take } from '../domain/rate-limit.js';
import type { RateLimit } from '../store/model.js';
import type { AuthPrincipal } from './auth.js';
import { clientTenant, tokenClientId } from './tenant.js';

/** The bucket a stage spends from: API requests (bearer operations) or token requests. */
export type LimitedKind = 'api' | 'token';

/** How an operation answers the limiter's 429 (the token endpoint: as RFC 6749 errors); the default is the one error shape. */
export type TooManyRequests = (res: Response, message: string) => void;

/** The client a request spends from, and its tenant's setting; null when it has none (or no client is known). */
function limitedClient(ctx: AppContext, kind: LimitedKind, res: Response, req: Parameters<RequestHandler>[0]) {
  if (kind === 'api') {
    const p = res.locals.principal as AuthPrincipal;
    const limit = p.account.rateLimit;
    return limit ? { clientId: p.merchant?.clientId ?? p.account.clientId, limit } : null;
  }
  const clientId = tokenClientId(req);
  const accountId = clientId === undefined ? null : clientTenant(ctx.store, clientId);
  const limit = accountId ? ctx.store.accounts.get(accountId)?.rateLimit : undefined;
  return limit && clientId !== undefined ? { clientId, limit } : null;
}

const describe = (kind: LimitedKind, l: RateLimit) =>
  kind === 'api' ? `${l.requestsPerSecond} requests a second, ${l.burst} at once` : `${l.tokenRequestsPerMinute} token requests a minute`;

/** The headers every answer of a limited client carries; Reset in whole seconds until the bucket is full. */
function rateHeaders(res: Response, t: Take): void {
  res.setHeader('X-RateLimit-Limit', String(t.limit));
  res.setHeader('X-RateLimit-Remaining', String(t.remaining));
  res.setHeader('X-RateLimit-Reset', String(t.resetSeconds));
}

export function rateLimitStage(ctx: AppContext, kind: LimitedKind, tooMany?: TooManyRequests): RequestHandler {
  const shape = kind === 'api' ? apiBucket : tokenBucket;
  return (req, res, next) => {
    const client = limitedClient(ctx, kind, res, req);
    if (!client) return next();
    // real time, monotonic: the app's pace is real whatever its tenant's sandbox clock says
    const take = ctx.rateLimits.take(`${kind} ${client.clientId}`, shape(client.limit), performance.now());
    rateHeaders(res, take);
    if (take.allowed) return next();
    res.setHeader('Retry-After', String(take.retryAfterSeconds));
    // the wait is in the message too: the journal keeps answers' bodies, not their headers
    const message = `client ${client.clientId} is over its rate limit (${describe(kind, client.limit)}); retry after ${take.retryAfterSeconds} s (Retry-After: ${take.retryAfterSeconds})`;
    if (tooMany) return tooMany(res, message);
    next(new SandboxError('TOO_MANY_REQUESTS', message));
  };
}
