// GET /_sandbox/health: open even with an admin token, never faulted. It reports readiness, not
// only liveness: 200 once every listener is up, the store open and the fixtures loaded; 503 while
// starting or stopping (a keep-alive connection can still ask during stop). `pix-sandbox wait`,
// the image's HEALTHCHECK and the Testcontainers module all wait on it.
import type { AppContext } from '../context.js';
import { realClock } from '../clock/clock.js';
import type { Routes } from '../http/routes.js';

export function healthRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/health', (_req, res) => {
    const { listening, storeOpen, fixturesLoaded, stopping } = ctx.readiness;
    const checks = { listening, storeOpen, fixturesLoaded };
    const ready = listening && storeOpen && fixturesLoaded && !stopping;
    const status = ready ? 'ok' : stopping ? 'stopping' : 'starting';
    res.status(ready ? 200 : 503).json({
      status,
      ready,
      checks,
      version: ctx.version,
      uptimeSeconds: Math.floor((realClock.nowMs() - ctx.startedAtMs) / 1000),
    });
  });
}
