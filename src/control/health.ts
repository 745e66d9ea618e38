// GET /_sandbox/health: open even with an admin token, never faulted. It reports readiness, not
// only liveness: 200 once every listener is up, the store open and the fixtures loaded; 503 while
// starting or stopping (a keep-alive connection can still ask during stop). `pix-sandbox wait`,
// the image's HEALTHCHECK and the Testcontainers module all wait on it.
// GET /_sandbox/version answers what is running.
import { realClock } from '../clock/clock.js';
import { adminRoute, route } from '../http/operations.js';
import { controlTag, ok } from '../schemas/operation.js';
import type { Wire } from '../schemas/from-schema.js';
import * as R from '../schemas/responses.js';
import { SCHEMA_VERSION } from '../store/model.js';

export const healthOperations = [
  route({
    method: 'get',
    path: '/_sandbox/health',
    tag: controlTag('sandbox'),
    auth: 'none',
    summary: 'Readiness (open even with an admin token): 200 once listening, store open and fixtures loaded',
    responses: { 200: ok(R.healthSchema, 'ready'), 503: ok(R.healthSchema, 'starting or stopping: not ready') },
    handle({ ctx, res }) {
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
      } satisfies Wire<typeof R.healthSchema>);
    },
  }),

  // GET /_sandbox/version (docs/control-api.md#version): what is running, for a bug report or a
  // compatibility check; the example of docs/contributing.md#add-an-endpoint.
  adminRoute({
    method: 'get',
    path: '/_sandbox/version',
    tag: controlTag('sandbox'),
    scope: 'tenant',
    summary: "The sandbox's version, the Node.js running it, and the version of its data file's format",
    responses: {
      200: ok({
        type: 'object',
        additionalProperties: false,
        required: ['version', 'node', 'storeSchemaVersion'],
        properties: {
          version: { type: 'string', description: "the package's version" },
          node: { type: 'string', pattern: '^v[0-9]+\\.', description: 'process.version' },
          storeSchemaVersion: { type: 'integer', minimum: 1, description: 'the data file format this build writes and reads' },
        },
      }),
    },
    handle({ ctx, res }) {
      res.json({ version: ctx.version, node: process.version, storeSchemaVersion: SCHEMA_VERSION });
    },
  }),
];
