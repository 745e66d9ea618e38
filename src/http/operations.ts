// The operation table at work: each entry (src/api/*.ts, src/control/*.ts) says method, path,
// request schemas, answers and its handler; mountOperations registers every entry on the router in
// one fixed order — auth, guards, body parsing, query validation, handler — and the 405s come from
// the same table (./routes.ts). /openapi.json (src/schemas/openapi.ts) and the precompiled validators
// (src/schemas/validated.ts) read the same entries, so the route, its validation and its description
// cannot drift apart (docs/contributing.md#add-an-endpoint).
import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import type { ControlScope, Operation } from '../schemas/operation.js';
import { validateQuery } from '../schemas/validator.js';
import { authenticate } from './auth.js';
import { BODY_LIMIT, parseBody, readBody } from './body.js';
import { rateLimitStage, type TooManyRequests } from './rate-limit.js';
import type { Routes } from './routes.js';
import type { Tenant } from './tenant.js';

/** What a handler is given. */
interface Call<B, Q> {
  ctx: AppContext;
  req: Request;
  res: Response;
  /** the query string, validated (and coerced) by the entry's `query` schema before the handler runs */
  query: Q;
  /**
   * The body, validated by the entry's `body` schema and `check` (unknown fields named in
   * x-sandbox-warnings and dropped). Asked for by the handler, so that its path-parameter, header
   * and 404 checks come first and a request wrong in both ways is answered as it always was.
   */
  readBody: () => B;
  /** every operation of the table (/openapi.json is built from it) */
  operations: readonly Operation[];
  /**
   * The tenant a control call is confined to (made with its token: src/http/admin.ts), or null for the
   * operator; a handler reaches records through src/control/scope.ts, which turns another tenant's into 404.
   */
  tenant: Tenant;
}

export interface RouteOperation<B = unknown, Q = unknown> extends Operation {
  /** middleware run after authentication and before the body is read (accountOnly, merchantOnly) */
  guards?: RequestHandler[];
  /** replaces the JSON body parser (the token endpoint also reads forms, and answers RFC 6749 errors) */
  parser?: RequestHandler;
  /** how the rate limiter's 429 is answered here (the token endpoint's RFC 6749 shape); default: the one error shape */
  tooManyRequests?: TooManyRequests;
  handle(c: Call<B, Q>): unknown;
}

/** An entry with its handler's body and query types (`Validated<typeof schema>` where exact: src/schemas/from-schema.ts). */
export const route = <B = never, Q = never>(op: RouteOperation<B, Q>): RouteOperation => op;
/**
 * A control entry: every /_sandbox operation but health, the dashboard and the document needs the admin
 * token, or (scope `tenant`) a tenant's token instead; each declares its scope.
 */
export const adminRoute = <B = never, Q = never>(
  op: Omit<RouteOperation<B, Q>, 'auth' | 'scope'> & { scope: ControlScope },
): RouteOperation => ({
  ...op,
  auth: 'admin',
});

/** A tenant's token on a call that acts on the whole sandbox: refused before anything is read. */
const sandboxOnly: RequestHandler = (_req, res, next) => {
  if (tenantOf(res) === null) return next();
  next(
    new SandboxError(
      'FORBIDDEN',
      "this call acts on the whole sandbox: a tenant's token reaches only its own records; use the admin token",
    ),
  );
};

const tenantOf = (res: Response): Tenant => (res.locals.tenant as Tenant | undefined) ?? null;

/** /v1/merchants/{merchantId} → /v1/merchants/:merchantId */
const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The literal segments of other paths of the table where `path` has a parameter: /v1/merchants/balance
 * for /v1/merchants/{merchantId}. A request naming one of them is never taken for a parameter: it falls
 * through to its own path's answer (its 405 when the method is not its own).
 */
function literalSiblings(path: string, ops: readonly Operation[]): Map<string, Set<string>> {
  const segs = path.split('/');
  const out = new Map<string, Set<string>>();
  segs.forEach((seg, i) => {
    const param = /^\{(\w+)\}$/.exec(seg)?.[1];
    if (!param) return;
    const prefix = segs.slice(0, i).join('/');
    for (const other of ops) {
      const o = other.path.split('/');
      const lit = o[i];
      if (o.slice(0, i).join('/') === prefix && lit !== undefined && !lit.startsWith('{'))
        out.set(param, (out.get(param) ?? new Set()).add(lit));
    }
  });
  return out;
}

const noBody = () => undefined;

/** Registers every entry of `ops`, in order, on `routes` (call routes.finish() after). */
export function mountOperations(routes: Routes, ctx: AppContext, ops: readonly RouteOperation[]): void {
  const auth = authenticate(ctx);
  const apiLimit = rateLimitStage(ctx, 'api');
  for (const op of ops) {
    const chain: RequestHandler[] = [];
    const siblings = literalSiblings(op.path, ops);
    if (siblings.size > 0)
      chain.push((req, _res, next) => {
        for (const [param, lits] of siblings) if (lits.has(String(req.params[param]))) return next('route');
        next();
      });
    // the rate limit once the client is known: the token's, after authentication (docs/api.md#rate-limits)
    if (op.auth === 'bearer') chain.push(auth, apiLimit);
    if (op.auth === 'admin' && op.scope === 'sandbox') chain.push(sandboxOnly);
    chain.push(...(op.guards ?? []));
    if (op.parser) chain.push(op.parser);
    else if (op.body) chain.push(parseBody(false, op.bodyLimitBytes ?? BODY_LIMIT));
    // or the token request's client_id, once its body is read
    if (op.auth === 'client') chain.push(rateLimitStage(ctx, 'token', op.tooManyRequests));
    const { body: bodySchema, check, query: querySchema } = op;
    chain.push((req, res) => {
      const query = querySchema ? validateQuery<unknown>(querySchema, req.query) : undefined;
      let body: { value: unknown } | undefined;
      // a closure per request only where there is a body to read (not on the lookup or the balance)
      const readOnce = bodySchema ? () => (body ??= { value: readBody<unknown>(req, res, bodySchema, check) }).value : noBody;
      return op.handle({ ctx, req, res, query, readBody: readOnce, operations: ops, tenant: tenantOf(res) });
    });
    routes[op.method](expressPath(op.path), ...chain);
  }
}
