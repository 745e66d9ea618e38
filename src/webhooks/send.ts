// One HTTP attempt: POST the body, wait at most `timeoutMs` for the answer's status line.
// node:http directly (not fetch) so that a hung receiver is cut at the deadline, connections
// are not pooled (a receiver restarting between attempts never meets a stale socket) and the
// dispatcher can abort everything in flight when the sandbox stops.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { httpsModule } from '../lazy-builtins.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../domain/webhook-signature.js';

export const ATTEMPT_TIMEOUT_MS = 5000;

/** The headers of every webhook POST, a delivery's or an arbitrary send's (docs/webhooks.md). */
export function webhookHeaders(version: string, eventId: string, signature: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': `pix-sandbox/${version}`,
    [EVENT_ID_HEADER]: eventId,
    [SIGNATURE_HEADER]: signature,
  };
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** the sandbox is stopping: the attempt did not count */
  aborted: boolean;
}

export function send(
  url: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs' | 'aborted'>, aborted = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({ ...r, durationMs: elapsed(), aborted });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ statusCode: null, error: `invalid URL ${url}`, durationMs: 0, aborted: false });
    }
    if (signal.aborted) return resolve({ statusCode: null, error: 'aborted: the sandbox is stopping', durationMs: 0, aborted: true });
    const mod = target.protocol === 'https:' ? httpsModule() : http;
    const req = mod.request(target, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' },
    });
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timeout: no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    const onAbort = () => {
      finish({ statusCode: null, error: 'aborted: the sandbox is stopping' }, true);
      req.destroy();
    };
    signal.addEventListener('abort', onAbort);
    req.on('response', (res) => {
      finish({ statusCode: res.statusCode ?? null, error: null });
      res.resume(); // the answer's body does not matter; drain it so the socket can close
      res.on('error', () => undefined);
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message }),
    );
    req.end(body);
  });
}
