// createApp(ctx) → the express app. It never listens and never touches files; boot() (server.ts)
// does, for the CLI's serve and startSandbox(). The pipeline reads top to bottom, as every request
// flows through it (docs/architecture.md#the-request-pipeline).
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
  // the request id, the journal (first of the rest: it sees every answer), the HTTPS check, cross-site
  // requests (left out only for the bench's baseline), the admin token, injected faults
  const crossSite = crossSiteChecks ? [crossSiteStage(ctx)] : [];
  app.use(pipeline([requestId, journalStage(ctx), httpsRequired(ctx), ...crossSite, adminStage(ctx), faultStage(ctx)]));
  const routes = createRoutes();
  mountOperations(routes, ctx, OPERATIONS);
  routes.finish();
  app.use(routes.router);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
