// Fault injection (docs/control-api.md#faults): a fault makes matching requests wait `latencyMs`, then answer
// `status` with the error body of docs/decisions.md#d8-one-error-shape whose `error.code` is the fault's code (or, with
// no status, carry on normally after the delay). Faults live in the store, so reset and restart
// cover them; a fault with `times` is spent one firing at a time, in the same commit that
// decides it fires, so concurrent requests never overspend it.
//
// Matching: an optional method (GET also matches HEAD), and a path pattern (pathMatches, shared with
// the verification of requests): a literal segment must be equal, `*` or `:name` matches any one
// segment, and a final `**` matches any rest (none included); query string and trailing slash ignored.
// A fault is sandbox-wide, or one tenant's own (docs/decisions.md#d62-scoped-arrangements): it then
// answers only that tenant's requests (./tenant.ts). The tenant's own faults are tried first, then the
// sandbox-wide ones, each in creation order; the first that matches wins. /_sandbox/faults... and
// /_sandbox/health are never faulted, so a fault can always be removed and health checks always answer.
//
// `probability` draws from the fault stream of the sandbox's random source (ctx.random.fault, from
// config.seed): the same seed and the same sequence of matching requests since start, reset or
// DELETE /_sandbox/faults fire the same faults.
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { SandboxError, notFound } from '../domain/errors.js';
import { pathMatches } from '../domain/request-match.js';
import { SANDBOX_WIDE } from '../domain/scope.js';
import type { FaultBody } from '../schemas/control-sandbox.js';
import type { Fault, New } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { drainBody } from './body.js';
import { sendError } from './errors.js';
import { requestTenant } from './tenant.js';

const EXEMPT = /^\/_sandbox\/(faults(\/.*)?|health)\/?$/;

const DEFAULT_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

function faultMatches(f: Fault, method: string, path: string): boolean {
  if (f.method && f.method !== method && !(f.method === 'GET' && method === 'HEAD')) return false;
  return pathMatches(f.path, path);
}

/** A 429 says when to come back (1 s unless told); a 503 only when told (the schema allows no other status). */
const retryAfter = (status: number, given: number | undefined): { retryAfterSeconds?: number } =>
  given !== undefined ? { retryAfterSeconds: given } : status === 429 ? { retryAfterSeconds: 1 } : {};

/** A fault of a scope: a tenant's own (`accountId`), or null: sandbox-wide. */
export function createFault(tx: Tx, ctx: AppContext, body: FaultBody, accountId: string | null): Readonly<Fault> {
  const status = body.status ?? 0;
  const code = status === 0 ? '' : (body.code ?? DEFAULT_CODES[status] ?? 'INJECTED_FAULT');
  const fault: New<Fault> = {
    id: ctx.newId(),
    ...(accountId ? { accountId } : {}),
    method: body.method ? body.method.toUpperCase() : null,
    path: body.path,
    status,
    code,
    message: status === 0 ? '' : (body.message ?? `injected fault: ${status} ${code}`),
    latencyMs: body.latencyMs ?? 0,
    ...retryAfter(status, body.retryAfterSeconds),
    remaining: body.times ?? null,
    probability: body.probability ?? 1,
    hits: 0,
    createdAt: ctx.clock.nowIso(),
  };
  return tx.put('faults', fault);
}

export function removeFault(tx: Tx, id: string): Readonly<Fault> {
  const f = tx.remove('faults', id);
  if (!f) throw notFound(`fault ${id}`);
  return f;
}

const oldest = { order: 'oldest' } as const;

/** One tenant's own faults, or every fault of every scope, oldest first. */
export const listFaults = (data: Reads, accountId?: string): Iterable<Readonly<Fault>> =>
  accountId ? data.faults.find('byScope', accountId, oldest) : data.faults.scan(oldest);

/** Removes one tenant's own faults, or (no accountId) every fault of every scope. */
export function clearFaults(tx: Tx, accountId?: string): number {
  const ids = [...listFaults(tx, accountId)].map((f) => f.id);
  for (const id of ids) tx.remove('faults', id);
  return ids.length;
}

/** The faults that may answer a tenant's request, in the order they are tried: its own, then the sandbox-wide ones. */
function* faultsFor(data: Reads, tenant: string | null): Generator<Readonly<Fault>> {
  if (tenant) yield* data.faults.find('byScope', tenant, oldest);
  yield* data.faults.find('byScope', SANDBOX_WIDE, oldest);
}

/** Whether every fault is sandbox-wide: then no request's tenant needs to be learned. */
function allSandboxWide(data: Reads): boolean {
  let wide = 0;
  for (const _ of data.faults.find('byScope', SANDBOX_WIDE)) wide++;
  return wide === data.faults.size;
}

/** Spends one firing of the fault (a spent fault is removed); null when it is gone meanwhile. */
function fire(tx: Tx, id: string): Readonly<Fault> | null {
  const f = tx.faults.get(id);
  if (!f) return null;
  const next: Fault = { ...f, hits: f.hits + 1, remaining: f.remaining === null ? null : f.remaining - 1 };
  if (next.remaining !== null && next.remaining <= 0) tx.remove('faults', id);
  else tx.put('faults', next);
  return f;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function faultStage(ctx: AppContext): RequestHandler {
  const inject = async (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1], next: Parameters<RequestHandler>[2]) => {
    try {
      const tenant = allSandboxWide(ctx.store) ? null : await requestTenant(ctx, req, res);
      let candidate: Readonly<Fault> | undefined;
      for (const f of faultsFor(ctx.store, tenant)) {
        if (!faultMatches(f, req.method, req.path)) continue;
        candidate = f;
        break;
      }
      if (!candidate) return next();
      if (candidate.probability < 1 && ctx.random.fault() >= candidate.probability) return next();
      const fault = await ctx.store.commit((tx) => fire(tx, candidate.id));
      if (!fault) return next();
      if (fault.latencyMs > 0) await sleep(fault.latencyMs);
      res.setHeader('x-sandbox-fault', fault.id);
      if (fault.status === 0) return next();
      // the journal keeps what the client sent, and whose request it was, though no route read it
      await requestTenant(ctx, req, res);
      await drainBody(req, res);
      if (fault.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(fault.retryAfterSeconds));
      sendError(res, new SandboxError(fault.code, fault.message, [], fault.status));
    } catch (e) {
      next(e);
    }
  };
  // synchronous in the common case (no fault at all: one property read, no promise made)
  return (req, res, next) => {
    if (ctx.store.faults.size === 0 || EXEMPT.test(req.path)) return next();
    void inject(req, res, next);
  };
}
