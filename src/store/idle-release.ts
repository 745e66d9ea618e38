// Gives memory back once the writes of a burst are over. Serving a burst of requests leaves V8's
// heap grown to several times what is alive (it sizes the heap by what each collection found, and
// keeps freed pages for reuse); V8's memory reducer returns them by itself only when a timer of its
// own happens to find the process idle, some 5 to 13 s later, or not at all. A sandbox is idle most
// of its life, between test runs: after at least BURST changes, once none has come for QUIET_MS,
// the store asks V8 for the low-memory collection the reducer would run (through the inspector
// protocol, a public API of Node; no flag needed). One full collection of a small heap (the records
// are outside it), once per burst. docs/store.md, "How memory is kept small".

export const BURST = 1_000;
export const QUIET_MS = 2_000;

export class IdleRelease {
  readonly #release: () => Promise<void>;
  #changes = 0;
  #lastChangeMs = 0;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(release: () => Promise<void> = lowMemoryCollection) {
    this.#release = release;
  }

  /** Called by the store after each change. */
  changed(): void {
    this.#lastChangeMs = Date.now();
    if (++this.#changes >= BURST && !this.#timer && !this.#closed) this.#arm(QUIET_MS);
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const quietFor = Date.now() - this.#lastChangeMs;
      if (quietFor < QUIET_MS) return this.#arm(QUIET_MS - quietFor);
      this.#changes = 0;
      void this.#release();
    }, ms);
    this.#timer.unref();
  }
}

/** V8's low-memory collection (what the memory reducer runs), asked for in-process. */
async function lowMemoryCollection(): Promise<void> {
  try {
    const { Session } = await import('node:inspector');
    const session = new Session();
    session.connect();
    await new Promise<void>((resolve) => session.post('HeapProfiler.collectGarbage', () => resolve()));
    session.disconnect();
  } catch {
    // a Node built without the inspector: V8's own reducer will get there later
  }
}
