// A reset while changes keep arriving (a sandbox restarted after a crash settles what was due, as
// requests arrive): every reset answers 200, no answer is a 500, and the data folder then holds
// exactly what the sandbox serves — no change of the old data written into the new store's files,
// no acknowledged change lost (each is in the store or in the files a reset moved aside).
// Size knobs: RESET_LOAD_RESETS (default 12), RESET_LOAD_WRITERS (6).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WalAdapter } from '../../src/store/wal-adapter.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { knob, readStoreOffline } from '../helpers/torture.js';

const RESETS = knob('RESET_LOAD_RESETS', 12);
const WRITERS = knob('RESET_LOAD_WRITERS', 6);

let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox({ file: true });
});
afterAll(async () => {
  await sb.stop();
});

/** Charges and pays them until `stopped()`; what was answered goes in `acked`, anything unexpected in `odd`. */
async function writer(acked: Set<string>, odd: string[], stopped: () => boolean): Promise<void> {
  let token: string | null = null;
  while (!stopped()) {
    token ??= await sb.token().catch(() => null);
    if (!token) continue;
    const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount: 1500, description: 'reset under load', customer: { name: 'Maria Silva', document: '52998224725' } },
    });
    if (r.status === 401)
      token = null; // a reset refused the token: take another
    else if (r.status !== 201) odd.push(`cash-in ${r.status} ${r.text}`);
    else {
      acked.add(r.body.transactionId as string);
      // a control write of the same record: 404 once a reset took the charge away
      const pay = await sb.request('POST', `/_sandbox/charges/${r.body.transactionId}/pay`, { body: {} });
      if (pay.status !== 200 && pay.status !== 404) odd.push(`pay ${pay.status} ${pay.text}`);
    }
  }
}

describe('reset while changes keep arriving', () => {
  it(`answers ${RESETS} resets 200, never a 500, and leaves on disk exactly what it serves`, async () => {
    const acked = new Set<string>();
    const odd: string[] = [];
    let stop = false;
    const writers = Array.from({ length: WRITERS }, () => writer(acked, odd, () => stop));
    const resets: { status: number; text: string }[] = [];
    for (let i = 0; i < RESETS; i++) {
      await new Promise((r) => setTimeout(r, 10 + ((i * 37) % 60)));
      const r = await sb.request('POST', '/_sandbox/reset', { body: {} });
      resets.push({ status: r.status, text: r.text });
    }
    stop = true;
    await Promise.all(writers);
    expect(resets.filter((r) => r.status !== 200)).toEqual([]);
    expect(odd).toEqual([]);
    expect(acked.size).toBeGreaterThan(RESETS); // the writers did write between the resets

    // the files a restart reads (read while the sandbox runs: no close compacts a leak away) hold what it serves
    const store = sb.running.ctx.store;
    await store.idle();
    const dir = sb.dataDir!;
    expect(await readStoreOffline(dir)).toEqual(store.toData());

    // every answered charge is in the store or in the data a reset moved aside
    const kept = new Set(Object.keys(store.toData().transactions));
    const movedAside = (await readdir(dir)).filter((n) => /^db\.json\.reset-.*\.bak$/.test(n));
    expect(movedAside.length).toBe(RESETS);
    for (const name of movedAside) {
      const data = await new WalAdapter(path.join(dir, name), false).read();
      for (const id of Object.keys(data!.toData().transactions)) kept.add(id);
    }
    expect([...acked].filter((id) => !kept.has(id))).toEqual([]);
  });
});

describe('named snapshots saved while resets come', () => {
  // A save copies the data, writes its file, then names it in the catalog; a reset meanwhile ends that
  // data and its catalog. Each save answers 201 (named in the data it was saved from, or after the
  // reset) or 409 (the data it copied is gone): never a 500, and never a name whose file is gone.
  it('answers each save 201 or 409, and every snapshot listed afterwards restores', async () => {
    const saves: { status: number; text: string }[] = [];
    let stop = false;
    const saver = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const r = await sb.request('POST', '/_sandbox/snapshots', { body: { name: `race-${w}-${i}` } });
        saves.push({ status: r.status, text: r.text });
      }
    };
    const savers = [0, 1, 2].map(saver);
    for (let i = 0; i < RESETS; i++) {
      await new Promise((r) => setTimeout(r, 5 + ((i * 29) % 40)));
      const r = await sb.request('POST', '/_sandbox/reset', { body: {} });
      expect(r.status, r.text).toBe(200);
    }
    stop = true;
    await Promise.all(savers);
    expect(saves.filter((s) => s.status !== 201 && s.status !== 409)).toEqual([]);
    expect(saves.filter((s) => s.status === 201).length).toBeGreaterThan(0);
    const conflicts = saves.filter((s) => s.status === 409).map((s) => JSON.parse(s.text).message as string);
    for (const m of conflicts) expect(m).toMatch(/reset or restored whole while snapshot race-\d+-\d+ was being saved|already/);

    const listed = (await sb.request('GET', '/_sandbox/snapshots')).body as { name: string }[];
    expect(listed.length).toBeGreaterThan(0);
    for (const s of listed) {
      const r = await sb.request('POST', `/_sandbox/snapshots/${s.name}/restore`, { body: {} });
      expect(r.status, `${s.name}: ${r.text}`).toBe(200);
    }
    // and each listed snapshot's file is in the folder (the reset took only its own catalog's)
    const files = await readdir(path.join(sb.dataDir!, 'snapshots'));
    for (const s of listed)
      expect(
        files.some((f) => f.startsWith(`${s.name}.`)),
        s.name,
      ).toBe(true);
  });
});
