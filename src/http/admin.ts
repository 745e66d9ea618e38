// The admin token (docs/decisions.md#d42-the-admin-token): when one is configured, every control call needs the header
// `x-sandbox-admin-token`, else 401 UNAUTHORIZED in the shape of docs/decisions.md#d8-one-error-shape.
// Left open on purpose: GET /_sandbox/health (health checks), the dashboard page itself
// (GET /_sandbox/ui and its assets: a static page without data, whose calls then carry the
// token), and /openapi.json (a description of the API, with no data in it).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';

const ADMIN_HEADER = 'x-sandbox-admin-token';
const CONTROL = /^\/_sandbox(\/|$)/;
const OPEN = /^\/_sandbox\/(health|ui(\/.*)?)\/?$/;

const digest = (s: string) => createHash('sha256').update(s).digest();

export function adminStage(ctx: AppContext): RequestHandler {
  const token = ctx.config.adminToken;
  const expected = token ? digest(token) : null;
  return (req, _res, next) => {
    if (!expected || !CONTROL.test(req.path)) return next();
    if (OPEN.test(req.path) && (req.method === 'GET' || req.method === 'HEAD')) return next();
    const given = req.get(ADMIN_HEADER);
    // compared as digests so that neither the length nor the content leaks through timing
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return next();
    const why = given === undefined ? `the ${ADMIN_HEADER} header is missing` : `the ${ADMIN_HEADER} header is wrong`;
    next(new SandboxError('UNAUTHORIZED', `${why}; this sandbox protects its control API with an admin token`));
  };
}
