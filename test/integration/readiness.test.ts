// GET /_sandbox/health reports readiness (docs/control-api.md#health): 200 once the sandbox can serve
// a test, 503 "stopping" with the failing checks named once a stop has begun. (`pix-sandbox wait`,
// which polls it, runs as a command in test/e2e/wait-ports.test.ts.)
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../helpers/sandbox.js';

describe('GET /_sandbox/health reports readiness', () => {
  it('ready once started; while stopping 503 "stopping" (a keep-alive client may still ask); after stop, the store is closed', async () => {
    const sb = await startTestSandbox();
    const ready = await sb.request('GET', '/_sandbox/health');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', ready: true });
    const stopping = sb.stop();
    // stop() has begun: the flags say so before the listener has finished closing
    expect(sb.running.ctx.readiness).toMatchObject({ stopping: true, listening: false });
    await stopping;
    expect(sb.running.ctx.readiness).toMatchObject({ storeOpen: false, fixturesLoaded: true });
  });

  it('answers 503 with status "stopping" and the failing checks named once stop() has begun', async () => {
    const sb = await startTestSandbox();
    try {
      // what a request arriving on a kept-alive connection during stop() sees
      sb.running.ctx.readiness.stopping = true;
      sb.running.ctx.readiness.listening = false;
      const r = await sb.request('GET', '/_sandbox/health');
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({
        status: 'stopping',
        ready: false,
        checks: { listening: false, storeOpen: true, fixturesLoaded: true },
      });
    } finally {
      await sb.stop();
    }
  });
});
