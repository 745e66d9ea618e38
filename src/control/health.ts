// GET /_sandbox/health (CONTRACT §12): open even with an admin token, never faulted.
import type { AppContext } from '../context.js';
import { realClock } from '../clock/clock.js';
import type { Routes } from '../http/routes.js';

export function healthRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/health', (_req, res) => {
    res.json({ status: 'ok', version: ctx.version, uptimeSeconds: Math.floor((realClock.nowMs() - ctx.startedAtMs) / 1000) });
  });
}
