// createApp(ctx) → the express app. It never listens and never touches files; main.ts and
// startSandbox() do. The pipeline reads top to bottom, as every request flows through it.
import express, { type Express, type RequestHandler } from 'express';
import type { AppContext } from './context.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { requestId } from './http/request-id.js';
import { useLeanJson } from './http/json.js';
import { createRoutes, type Routes } from './http/routes.js';
import { oauthRoutes } from './api/oauth.js';
import { merchantRoutes } from './api/merchants.js';
import { chargeRoutes } from './api/charges.js';
import { transferRoutes } from './api/transfers.js';
import { transactionRoutes } from './api/transactions.js';
import { balanceRoutes } from './api/balances.js';
import { httpsRequired } from './http/https-required.js';
import { openApiRoutes } from './api/openapi.js';
import { webhookControlRoutes } from './control/webhooks.js';
import { webhookFaultRoutes } from './control/webhook-faults.js';
import { journalStage } from './http/journal.js';
import { adminStage } from './http/admin.js';
import { faultStage } from './http/faults.js';
import { healthRoutes } from './control/health.js';
import { resetRoutes } from './control/reset.js';
import { accountRoutes } from './control/accounts.js';
import { walletRoutes } from './control/wallets.js';
import { controlMerchantRoutes } from './control/merchants.js';
import { controlTransactionRoutes } from './control/transactions.js';
import { controlChargeRoutes } from './control/charges.js';
import { controlTransferRoutes } from './control/transfers.js';
import { controlPixRoutes } from './control/pix.js';
import { pixKeyRoutes } from './control/pix-keys.js';
import { ruleRoutes } from './control/rules.js';
import { clockRoutes } from './control/clock.js';
import { requestRoutes } from './control/requests.js';
import { faultRoutes } from './control/faults.js';
import { uiRoutes } from './control/ui.js';

/** A module that adds routes. Public API modules live in src/api, control modules in src/control. */
export type RouteModule = (routes: Routes, ctx: AppContext) => void;

/** Middleware that other modules insert before routing (journal, HTTPS check, faults). */
export type Stage = (ctx: AppContext) => RequestHandler;

export const ROUTE_MODULES: RouteModule[] = [
  oauthRoutes,
  merchantRoutes,
  chargeRoutes,
  transferRoutes,
  transactionRoutes,
  balanceRoutes,
  webhookFaultRoutes, // before webhookControlRoutes: /_sandbox/webhooks/{id} would take its paths
  webhookControlRoutes,
  healthRoutes,
  resetRoutes,
  accountRoutes,
  walletRoutes,
  controlMerchantRoutes,
  controlTransactionRoutes,
  controlChargeRoutes,
  controlTransferRoutes,
  controlPixRoutes,
  pixKeyRoutes,
  ruleRoutes,
  clockRoutes,
  requestRoutes,
  faultRoutes,
  uiRoutes,
  openApiRoutes,
];
// journal first (it sees every answer), then the HTTPS check, the admin token, injected faults
export const STAGES: Stage[] = [journalStage, httpsRequired, adminStage, faultStage];

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

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  useLeanJson(app);
  app.use(pipeline([requestId, ...STAGES.map((stage) => stage(ctx))]));
  const routes = createRoutes();
  for (const mod of ROUTE_MODULES) mod(routes, ctx);
  routes.finish();
  app.use(routes.router);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
