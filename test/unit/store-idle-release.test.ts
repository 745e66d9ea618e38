// The store gives memory back once a burst of changes is over: after BURST changes and QUIET_MS
// without one, once; never for a few changes, never while changes keep coming, never after close.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BURST, IdleRelease, QUIET_MS } from '../../src/store/idle-release.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('IdleRelease', () => {
  it('asks for the low-memory collection once, when a burst has been quiet for QUIET_MS', async () => {
    const release = vi.fn(() => Promise.resolve());
    const idle = new IdleRelease(release);
    for (let i = 0; i < BURST - 1; i++) idle.changed();
    await vi.advanceTimersByTimeAsync(10 * QUIET_MS);
    expect(release).not.toHaveBeenCalled(); // a few changes: nothing to give back
    idle.changed();
    // changes keep coming: it waits for them to stop
    for (let t = 0; t < 5; t++) {
      await vi.advanceTimersByTimeAsync(QUIET_MS / 2);
      idle.changed();
    }
    expect(release).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(QUIET_MS);
    expect(release).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10 * QUIET_MS);
    expect(release).toHaveBeenCalledTimes(1);
    // the next burst, once more; a closed store never
    for (let i = 0; i < BURST; i++) idle.changed();
    await vi.advanceTimersByTimeAsync(QUIET_MS);
    expect(release).toHaveBeenCalledTimes(2);
    for (let i = 0; i < BURST; i++) idle.changed();
    idle.close();
    await vi.advanceTimersByTimeAsync(10 * QUIET_MS);
    expect(release).toHaveBeenCalledTimes(2);
  });

  it('the real one runs in-process through the inspector protocol, without a flag', async () => {
    vi.useRealTimers();
    const { Session } = await import('node:inspector');
    const session = new Session();
    session.connect();
    const result = await new Promise<unknown>((resolve, reject) =>
      session.post('HeapProfiler.collectGarbage', (e: Error | null, r: unknown) => (e ? reject(e) : resolve(r))),
    );
    session.disconnect();
    expect(result).toEqual({});
  });
});
