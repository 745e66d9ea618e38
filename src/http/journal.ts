// The journal stage (docs/control-api.md#request-journal): records each exchange of the API a client
// under test calls, with the tenant it belongs to, in that tenant's ring (./journal-ring.ts). It is
// diagnostic and lives in memory only (not in the store): a restart empties it, and a reset clears it.
// Only /v1/... and the charge locations /pix/... are journaled; control calls (/_sandbox, a dashboard
// polling it) and /openapi.json are not.
// Every secret is redacted from what the journal shows: Authorization values, client secrets,
// access tokens, the admin token, in headers, JSON and form bodies, and query strings alike.
// Recording is on every API request's path, so headers, the body read and the bytes answered are kept
// as they came and parsed and redacted only when the journal is listed (nothing unredacted ever leaves).
import type { RequestHandler, Response } from 'express';
import type { TLSSocket } from 'node:tls';
import { performance } from 'node:perf_hooks';
import { realClock } from '../clock/clock.js';
import type { AppContext } from '../context.js';
import { redact } from './redact.js';
import { MAX_CAPTURE_BYTES, type RawEntry } from './journal-ring.js';
import { knownTenant } from './tenant.js';

const JOURNALED = /^\/(v1|pix)(\/|$)/;

/** At most MAX_CAPTURE_BYTES (characters, for text) of an answer, kept as it came: no copy, no conversion, when small. */
function clip(chunk: unknown): string | Buffer | null {
  if (typeof chunk === 'string') return chunk.length > MAX_CAPTURE_BYTES ? chunk.slice(0, MAX_CAPTURE_BYTES) : chunk;
  if (Buffer.isBuffer(chunk)) return chunk.length > MAX_CAPTURE_BYTES ? Buffer.from(chunk.subarray(0, MAX_CAPTURE_BYTES)) : chunk;
  return null;
}

const entryOf = (res: Response) => res.locals.journalEntry as RawEntry | undefined;

/**
 * Hands the journal the body as read (body-parser's `verify`, before it parses; or a body drained for a
 * faulted answer). Kept as text, a copy: the buffer may be a slice of a pooled one that a reference would
 * keep whole. A body too long to keep is noted by its size until its parse (noteParsedBody) replaces it.
 */
export function noteRawBody(res: Response, buf: Buffer, type: string | undefined): void {
  const entry = entryOf(res);
  if (!entry) return;
  entry.bodyType = type;
  entry.body = buf.length <= MAX_CAPTURE_BYTES ? buf.toString('utf8') : { shown: `(${buf.length} bytes of ${type ?? 'no Content-Type'})` };
}

/** After a parse: a body too long to keep as text is kept as a redacted copy of what was parsed, bounded (redact's budget). */
export function noteParsedBody(res: Response, body: unknown): void {
  const entry = entryOf(res);
  if (entry && entry.body !== null && typeof entry.body !== 'string') entry.body = { shown: redact(body) };
}

/** The journal stage: first in the pipeline, so that it sees every answer, injected faults included. */
export function journalStage(ctx: AppContext): RequestHandler {
  const journal = ctx.journal;
  return (req, res, next) => {
    if (journal.capacity === 0 || !JOURNALED.test(req.path)) return next();
    const started = performance.now();
    // one object per request, filled in as the request goes (body: noteRawBody; the rest: at end())
    const entry: RawEntry = {
      accountId: null,
      atMs: realClock.nowMs(), // the journal keeps real time: tenants' clocks differ
      clockMs: 0,
      plain: !(req.socket as TLSSocket).encrypted,
      injected: false,
      retryAfter: undefined,
      method: req.method,
      url: req.originalUrl,
      status: 0,
      durationMs: 0,
      requestId: '',
      // as text: what the ring keeps (an object of strings would stay on the heap until the entry goes)
      headers: JSON.stringify(req.headers),
      body: null,
      bodyType: undefined,
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
      // by now the route has authenticated its principal (or the fault stage learned the tenant)
      entry.accountId = knownTenant(ctx, req, res);
      // and the tenant's clock beside real time: the report's token lifetimes are on it (docs/decisions.md#d83-the-reports-clocks)
      entry.clockMs = entry.accountId === null ? ctx.clock.nowMs() : ctx.nowMsOf(entry.accountId);
      entry.injected = res.getHeader('x-sandbox-fault') !== undefined;
      entry.retryAfter = res.getHeader('retry-after')?.toString();
      journal.add(entry);
      return end.call(this, chunk, encoding, cb);
    } as typeof res.end;
    next();
  };
}
