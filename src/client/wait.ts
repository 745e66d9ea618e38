// Waiting for a sandbox to be ready: GET /_sandbox/health until it answers 200 with ready: true
// (listening, store open, fixtures loaded), or until the time is up. `pix-sandbox wait` and a test
// suite's set-up use it alike; on a timeout it says what it last saw, so a CI log tells a sandbox
// that never started (connection refused) from one still starting, or something else on the port.
import type { SandboxHealth } from './control-client.js';
import { NetworkError, Transport } from './transport.js';

export interface WaitOptions {
  /** give up after this many seconds; default 30 */
  timeoutSeconds?: number;
  /** pause between two attempts, in milliseconds; default 250 */
  intervalMs?: number;
  /** PEM certificate(s) to trust when the URL is https:// */
  ca?: string | string[];
}

export type WaitResult =
  { ready: true; health: SandboxHealth; elapsedMs: number } | { ready: false; lastSeen: string; attempts: number; elapsedMs: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function describeAnswer(status: number, body: unknown): string {
  const h = body as Partial<SandboxHealth> | undefined;
  if (h && typeof h === 'object' && typeof h.status === 'string' && h.checks) {
    const pending = Object.entries(h.checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    return `HTTP ${status}, status "${h.status}"${pending.length ? ` (not yet: ${pending.join(', ')})` : ''}`;
  }
  return `HTTP ${status} without a pix-sandbox health answer (is something else listening there?)`;
}

function describeFailure(e: unknown): string {
  if (!(e instanceof NetworkError)) return (e as Error).message;
  if (e.code === 'ECONNREFUSED') return 'connection refused (nothing listens there yet)';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `the host name does not resolve (${e.code})`;
  return e.message;
}

/** Resolves once the sandbox at `baseUrl` is ready, or with what it last saw after the timeout; never rejects. */
export async function waitForSandbox(baseUrl: string, options: WaitOptions = {}): Promise<WaitResult> {
  const timeoutMs = (options.timeoutSeconds ?? 30) * 1000;
  const intervalMs = options.intervalMs ?? 250;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let lastSeen = 'nothing: no attempt finished in time';
  let attempts = 0;
  while (attempts === 0 || elapsed() < timeoutMs) {
    attempts++;
    // one attempt never outlasts the time left (a port that accepts but never answers)
    const transport = new Transport({
      baseUrl,
      timeoutMs: Math.max(100, Math.min(2000, timeoutMs - elapsed())),
      ...(options.ca ? { ca: options.ca } : {}),
    });
    try {
      const res = await transport.request<SandboxHealth>('GET', '/_sandbox/health');
      if (res.status === 200 && res.body?.ready === true) return { ready: true, health: res.body, elapsedMs: elapsed() };
      lastSeen = describeAnswer(res.status, res.body);
    } catch (e) {
      lastSeen = describeFailure(e);
    }
    const left = timeoutMs - elapsed();
    if (left <= 0) break;
    await sleep(Math.min(intervalMs, left));
  }
  return { ready: false, lastSeen, attempts, elapsedMs: elapsed() };
}
