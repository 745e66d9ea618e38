// createApp(ctx) → the express app. It never listens and never touches files; main.ts and
// startSandbox() do. The pipeline reads top to bottom, as every request flows through it.
import express, { type Express, type RequestHandler } from 'express';
import type { AppContext } from './context.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { requestId } from './http/request-id.js';
import { createRoutes, type Routes } from './http/routes.js';
import { oauthRoutes } from './api/oauth.js';
import { merchantRoutes } from './api/merchants.js';
import { chargeRoutes } from './api/charges.js';
import { transferRoutes } from './api/transfers.js';
import { transactionRoutes } from './api/transactions.js';
import { balanceRoutes } from './api/balances.js';
import { httpsRequired } from './http/https-required.js';

/** A module that adds routes. Public API modules live in src/api, control modules in src/control. */
export type RouteModule = (routes: Routes, ctx: AppContext) => void;

/** Middleware that other modules insert before routing (journal, HTTPS check, faults). */
export type Stage = (ctx: AppContext) => RequestHandler;

export const ROUTE_MODULES: RouteModule[] = [oauthRoutes, merchantRoutes, chargeRoutes, transferRoutes, transactionRoutes, balanceRoutes];
export const STAGES: Stage[] = [httpsRequired];

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId);
  for (const stage of STAGES) app.use(stage(ctx));
  const routes = createRoutes();
  for (const mod of ROUTE_MODULES) mod(routes, ctx);
  routes.finish();
  app.use(routes.router);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
