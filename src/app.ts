// createApp(ctx) → the express app. It never listens and never touches files; main.ts and
// startSandbox() do. The pipeline reads top to bottom, as every request flows through it.
import express, { type Express, type RequestHandler } from 'express';
import type { AppContext } from './context.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { requestId } from './http/request-id.js';
import { useLeanJson } from './http/json.js';
import { createRoutes } from './http/routes.js';
import { httpsRequired } from './http/https-required.js';
import { journalStage } from './http/journal.js';
import { adminStage } from './http/admin.js';
import { crossSiteStage } from './http/cross-site.js';
import { faultStage } from './http/faults.js';
import { mountOperations } from './http/operations.js';
import { OPERATIONS } from './operations.js';

/** Middleware that other modules insert before routing (journal, HTTPS check, faults). */
export type Stage = (ctx: AppContext) => RequestHandler;

// journal first (it sees every answer), then the HTTPS check, cross-site requests, the admin token, injected faults
export const STAGES: Stage[] = [journalStage, httpsRequired, crossSiteStage, adminStage, faultStage];

/**
 * The stages run as one middleware: every request passes all of them, so one router layer
 * instead of one each (each layer costs a path match and a trip through the router).
 */
function pipeline(stages: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const stage = stages[i++];
      if (!stage) return next();
      try {
        const result = stage(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}

/** `crossSiteChecks: false` only for the bench's baseline (src/server.ts, BootInternals). */
export function createApp(ctx: AppContext, { crossSiteChecks = true }: { crossSiteChecks?: boolean } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  useLeanJson(app);
  const stages = crossSiteChecks ? STAGES : STAGES.filter((s) => s !== crossSiteStage);
  app.use(pipeline([requestId, ...stages.map((stage) => stage(ctx))]));
  const routes = createRoutes();
  mountOperations(routes, ctx, OPERATIONS);
  routes.finish();
  app.use(routes.router);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
