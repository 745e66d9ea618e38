// The change stream (GET /_sandbox/changes, docs/control-api.md#the-change-stream): the sandbox
// tells the page what changed, so the page reads again only what went stale, and an idle page
// makes no request at all. Read with fetch() rather than EventSource, so that the admin token goes
// in a header as on every other call, never in a URL.
import { answerOf, ApiError, headers, query, report } from './api.js';

/** @typedef {import('./vocabulary.js').ChangeTopic} ChangeTopic */
/** @typedef {{ topics: ChangeTopic[], transactionIds: string[] | null, reset: boolean }} Change */
/**
 * @typedef {object} StreamHandlers
 * @property {() => void} ready the sandbox listens: read everything now (what changed before was not told)
 * @property {(change: Change) => void} change
 * @property {(error: ApiError) => void} down the stream broke; it comes back by itself unless the token was refused
 */

/** pauses before reconnecting, in ms: the first at once, then longer */
const BACKOFF_MS = [0, 1000, 2000, 5000, 10_000];

/**
 * The blocks of an event stream (text/event-stream) as they arrive: `{event, data}` per block.
 * @param {ReadableStream<Uint8Array>} body
 */
async function* events(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

/**
 * Listens to the changes of `topics` (of `accountId` alone, for a tenant's records) until close().
 * @param {{ topics: ChangeTopic[], accountId: string | null }} subscription
 * @param {StreamHandlers} on
 */
export function openStream({ topics, accountId }, on) {
  const abort = new AbortController();
  const url = `/_sandbox/changes${query({ topics: topics.join(','), accountId })}`;
  let failures = 0;
  /** @type {(() => void) | null} */
  let wake = null;

  /** Waits `ms`, or until retry() when null (no timer while the page waits for a token). */
  const pause = (/** @type {number | null} */ ms) =>
    new Promise((resolve) => {
      const timer = ms === null ? undefined : setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve(undefined);
      };
    });

  (async () => {
    while (!abort.signal.aborted) {
      try {
        let res;
        try {
          res = await fetch(url, { headers: { ...headers(), accept: 'text/event-stream' }, cache: 'no-store', signal: abort.signal });
        } catch {
          if (abort.signal.aborted) return;
          throw new ApiError(0, { message: 'the sandbox cannot be reached' });
        }
        if (!res.ok || !res.body) await answerOf(res); // throws the refusal, reported like any other call's
        for await (const { event, data } of events(/** @type {ReadableStream<Uint8Array>} */ (res.body))) {
          if (event === 'ready') {
            failures = 0;
            report(null);
            on.ready();
          } else if (event === 'change') on.change(JSON.parse(data));
        }
        if (abort.signal.aborted) return;
        throw new ApiError(0, { message: 'the sandbox closed the stream' });
      } catch (e) {
        if (abort.signal.aborted) return;
        const error = e instanceof ApiError ? e : new ApiError(0, { message: 'the stream broke' });
        if (error.status === 0) report(error);
        on.down(error);
        // a refused token waits for a new one (retry()); anything else tries again after a pause
        await pause(error.isAuth ? null : (BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)] ?? 0));
      }
    }
  })();

  return {
    /** Tries again now (a new token was given). */
    retry() {
      wake?.();
    },
    close() {
      abort.abort();
      wake?.();
    },
  };
}
