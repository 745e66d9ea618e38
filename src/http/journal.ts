// The request journal (docs/control-api.md#request-journal): a bounded ring of recent API requests and their answers,
// for a tester to see what their app really sent. It is diagnostic and lives in memory only
// (not in the store): a restart empties it, and a reset clears it.
// Only the API a client under test calls is journaled: /v1/... and the charge locations /pix/...;
// control calls (/_sandbox, a dashboard polling it) and /openapi.json are not.
// Every secret is redacted from what the journal shows: Authorization values, client secrets,
// access tokens, the admin token, in headers, JSON and form bodies, and query strings alike.
// Recording is on every API request's path, so headers and the bytes answered are kept raw and
// redacted only when the journal is listed (nothing unredacted ever leaves); a request body is
// redacted at once, since that copy is also what bounds its size.
import type { RequestHandler, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { realClock } from '../clock/clock.js';
import type { AppContext } from '../context.js';
import { redact, type RawEntry } from './journal-ring.js';

const JOURNALED = /^\/(v1|pix)(\/|$)/;
/** bytes of a response kept per entry (a QR image is ~2 KiB), so 500 entries stay small */
const MAX_CAPTURE_BYTES = 32 * 1024;

/** At most MAX_CAPTURE_BYTES (characters, for text) of an answer, kept as it came: no copy, no conversion, when small. */
function clip(chunk: unknown): string | Buffer | null {
  if (typeof chunk === 'string') return chunk.length > MAX_CAPTURE_BYTES ? chunk.slice(0, MAX_CAPTURE_BYTES) : chunk;
  if (Buffer.isBuffer(chunk)) return chunk.length > MAX_CAPTURE_BYTES ? Buffer.from(chunk.subarray(0, MAX_CAPTURE_BYTES)) : chunk;
  return null;
}

/**
 * Hands the journal the body as the client sent it (parseBody calls this before validation fills
 * in defaults). Redacted now, not when listed: the copy is bounded (MAX_NODES), the client's body may not be.
 */
export function noteBody(res: Response, body: unknown): void {
  const entry = res.locals.journalEntry as RawEntry | undefined;
  if (entry) entry.body = body === undefined ? null : redact(body);
}

/** The journal stage: first in the pipeline, so that it sees every answer, injected faults included. */
export function journalStage(ctx: AppContext): RequestHandler {
  const journal = ctx.journal;
  return (req, res, next) => {
    if (journal.capacity === 0 || !JOURNALED.test(req.path)) return next();
    const started = performance.now();
    // one object per request, filled in as the request goes (body: noteBody; the rest: at end())
    const entry: RawEntry = {
      seq: 0,
      atMs: realClock.nowMs(), // the journal keeps real time: tenants' clocks differ
      method: req.method,
      url: req.originalUrl,
      status: 0,
      durationMs: 0,
      requestId: '',
      headers: req.headers,
      body: undefined,
      response: null,
      contentType: undefined,
    };
    res.locals.journalEntry = entry;
    // Journaled paths answer with res.json/res.send, which hand the whole body to one end() call:
    // the entry is recorded there, keeping the chunk as it is (converted when the journal is listed).
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with res as `this` below
    const end = res.end as (this: Response, chunk?: unknown, encoding?: unknown, cb?: unknown) => Response;
    res.end = function journaledEnd(this: Response, chunk?: unknown, encoding?: unknown, cb?: unknown) {
      entry.status = res.statusCode;
      entry.durationMs = Math.round((performance.now() - started) * 100) / 100;
      entry.requestId = String(res.locals.requestId ?? '');
      entry.response = clip(chunk);
      entry.contentType = res.getHeader('content-type')?.toString();
      journal.add(entry);
      return end.call(this, chunk, encoding, cb);
    } as typeof res.end;
    next();
  };
}
