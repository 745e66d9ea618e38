// The control API's gate (docs/control-api.md#conventions): who makes a /_sandbox call.
// - A call with `Authorization: Bearer <an access token of account A>` is made by tenant A
//   (docs/decisions.md#d65-self-service-control): it acts within A only (the operation table's `scope`
//   and src/control/scope.ts confine it), whatever else it carries, and needs no admin token. A bad or
//   expired token is 401 in the usual shape; a merchant's token gives no control access (403).
// - Any other call is the operator's, unconfined: when an admin token is configured
//   (docs/decisions.md#d42-the-admin-token) it needs the header `x-sandbox-admin-token`, else 401
//   UNAUTHORIZED in the shape of docs/decisions.md#d8-one-error-shape.
// An admin token given beside a bearer token must still be the right one (a typo never passes unnoticed).
// Left open on purpose: GET /_sandbox/health (health checks), the dashboard page itself
// (GET /_sandbox/ui and its assets: a static page without data, whose calls then carry the
// token), and /openapi.json (a description of the API, with no data in it).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import { bearerPrincipal, nowSecondsOf } from './auth.js';
import type { Tenant } from './tenant.js';

const ADMIN_HEADER = 'x-sandbox-admin-token';
const CONTROL = /^\/_sandbox(\/|$)/;
const OPEN = /^\/_sandbox\/(health|ui(\/.*)?)\/?$/;

const digest = (s: string) => createHash('sha256').update(s).digest();

export function adminStage(ctx: AppContext): RequestHandler {
  const token = ctx.config.adminToken;
  const expected = token ? digest(token) : null;
  const now = nowSecondsOf(ctx);
  return (req, res, next) => {
    if (!CONTROL.test(req.path)) return next();
    if (OPEN.test(req.path) && (req.method === 'GET' || req.method === 'HEAD')) return next();
    const authorization = req.get('authorization');
    const bearer = authorization !== undefined && /^bearer\b/i.test(authorization);
    if (expected) {
      const given = req.get(ADMIN_HEADER);
      // compared as digests so that neither the length nor the content leaks through timing
      const right = given !== undefined && timingSafeEqual(digest(given), expected);
      if (!right && (given !== undefined || !bearer)) {
        const why = given === undefined ? `the ${ADMIN_HEADER} header is missing` : `the ${ADMIN_HEADER} header is wrong`;
        return next(
          new SandboxError(
            'UNAUTHORIZED',
            `${why}; this sandbox protects its control API with an admin token (or a tenant's access token, for its own records)`,
          ),
        );
      }
    }
    if (!bearer) {
      res.locals.tenant = null satisfies Tenant;
      return next();
    }
    try {
      const principal = bearerPrincipal(ctx, authorization, now);
      if (principal.kind === 'merchant')
        throw new SandboxError('FORBIDDEN', "a merchant's token gives no access to the control API: use its account's token");
      res.locals.tenant = principal.account.id satisfies Tenant;
    } catch (e) {
      return next(e);
    }
    next();
  };
}
