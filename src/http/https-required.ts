// --require-https (docs/decisions.md#d41-http-and-https): the real service refuses plain HTTP, so with this option the
// sandbox does too, for the API an app under test calls: /v1/... and the charge locations /pix/....
// The control API, the dashboard and /openapi.json stay reachable over HTTP: they are the test
// harness's tools, not part of the emulated service, and /_sandbox/health must answer probes.
import type { TLSSocket } from 'node:tls';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import { sendError } from './errors.js';

const REFUSED = /^\/(v1|pix)(\/|$)/;

export function httpsRequired(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    if (!ctx.config.requireHttps || (req.socket as TLSSocket).encrypted || !REFUSED.test(req.path)) return next();
    const base = ctx.publicUrl(); // the HTTPS listener's URL once it is up (see boot())
    const hint = base.startsWith('https:') ? `: ${base}${req.originalUrl}` : '';
    sendError(res, new SandboxError('HTTPS_REQUIRED', `plain HTTP is not accepted; use HTTPS${hint}`));
  };
}
