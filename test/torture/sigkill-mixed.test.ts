// SIGKILL under concurrent mixed writes (issue 9): a real `pix-sandbox serve` child process on a
// data folder takes cash-ins, payments, cash-outs (with idempotency keys, some replayed) and
// merchant creations from several concurrent writers, and is killed with SIGKILL at a random
// instant, again and again on the same folder. After every kill: db.json is whole, every change
// whose answer arrived is in the store a restart reads (at least in the state answered), the
// ledger invariant of docs/decisions.md#d30-a-double-entry-ledger holds, every index agrees with a full scan of the records, and
// the restarted sandbox serves those records, its lists paged through those indexes.
// Size knobs: TORTURE_TRIALS (default 20), TORTURE_WRITERS (8), TORTURE_SEED.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  call,
  checkLedger,
  cpf,
  int,
  knob,
  pick,
  prng,
  readStoreDataOffline,
  readStoreOffline,
  killingFolder,
} from '../helpers/torture.js';
import { SCHEMA_VERSION, type Data } from '../../src/store/model.js';
import { collectionsOfData, indexProblems, snapshotFile } from '../helpers/store-checks.js';

const TRIALS = knob('TORTURE_TRIALS', 20);
const WRITERS = knob('TORTURE_WRITERS', 8);
const SEED = knob('TORTURE_SEED', 20240917);
const CREDS = { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' };

interface AckedTransfer {
  key: string;
  body: Record<string, unknown>;
  amount: number;
}

/** What the writers were told: each entry is a change whose success answer arrived. */
interface Acks {
  charges: Map<string, 'WAITING_PAYMENT' | 'PAID'>;
  transfers: Map<string, AckedTransfer>;
  merchants: Set<string>;
  /** replays of an answered key that answered another transaction (must stay empty) */
  replayMismatches: string[];
  /** answers that are neither success nor an expected refusal */
  unexpected: string[];
}

const folder = killingFolder('pix-torture-kill-');

async function token(base: string): Promise<string> {
  const r = await call(base, 'POST', '/v1/oauth/token', { body: CREDS });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.access_token as string;
}

/** One writer: random operations until `stop()` says the process is gone. */
async function writer(base: string, tok: string, rand: () => number, acks: Acks, stopped: () => boolean): Promise<number> {
  let answered = 0;
  const refused = (status: number) => status === 0 || status === 409 || status === 422;
  while (!stopped()) {
    const r = rand();
    if (r < 0.3) {
      // cash-in; a few carry the magic amount that the clock pays by itself
      const amount = rand() < 0.1 ? 10001 : int(rand, 100, 9_999);
      const res = await call(base, 'POST', '/v1/banking/cash-in/pix', {
        token: tok,
        body: { amount, description: 'torture', customer: { name: 'Maria Silva', document: cpf(rand) } },
      });
      if (res.status === 201) {
        if (!acks.charges.has(res.body.transactionId)) acks.charges.set(res.body.transactionId, 'WAITING_PAYMENT');
        answered++;
      } else if (!refused(res.status)) acks.unexpected.push(`cash-in ${res.status} ${JSON.stringify(res.body)}`);
    } else if (r < 0.5) {
      const waiting = [...acks.charges].filter(([, s]) => s === 'WAITING_PAYMENT').map(([id]) => id);
      if (waiting.length === 0) continue;
      const id = pick(rand, waiting);
      const res = await call(base, 'POST', `/_sandbox/charges/${id}/pay`, { body: {} });
      if (res.status === 200) {
        acks.charges.set(id, 'PAID');
        answered++;
      } else if (!refused(res.status)) acks.unexpected.push(`pay ${res.status} ${JSON.stringify(res.body)}`);
    } else if (r < 0.75) {
      // cash-out; some with the magic amount that fails (and is credited back), some to a key whose owner differs
      const amount = rand() < 0.1 ? 20001 : int(rand, 100, 3_000);
      const key = randomUUID();
      const doc = cpf(rand);
      const body = {
        type: 'pix_key',
        description: 'torture',
        amount: String(amount),
        details: { name: 'Fornecedor', key: rand() < 0.8 ? doc : cpf(rand), keyType: 'CPF', document: doc },
      };
      const res = await call(base, 'POST', '/v1/banking/cash-out/pix', { token: tok, body, headers: { 'x-idempotency-key': key } });
      if (res.status === 201) {
        acks.transfers.set(res.body.transactionId, { key, body, amount });
        answered++;
      } else if (!refused(res.status)) acks.unexpected.push(`cash-out ${res.status} ${JSON.stringify(res.body)}`);
    } else if (r < 0.85) {
      // replay an answered key, maybe from before a kill: the same transaction, no new debit
      if (acks.transfers.size === 0) continue;
      const [id, t] = pick(rand, [...acks.transfers]);
      const res = await call(base, 'POST', '/v1/banking/cash-out/pix', {
        token: tok,
        body: t.body,
        headers: { 'x-idempotency-key': t.key },
      });
      if (res.status === 201 && res.body.transactionId !== id) acks.replayMismatches.push(`${t.key}: ${id} then ${res.body.transactionId}`);
      else if (res.status !== 201 && res.status !== 0) acks.unexpected.push(`replay ${res.status} ${JSON.stringify(res.body)}`);
    } else {
      const res = await call(base, 'POST', '/v1/merchants', {
        token: tok,
        body: { name: 'Loja Torture', document: cpf(rand), document_type: 'CPF', email: 'loja@example.com', phone: '11987654321' },
      });
      if (res.status === 201) {
        acks.merchants.add(res.body.data.merchant.id);
        answered++;
      } else if (!refused(res.status)) acks.unexpected.push(`merchant ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  return answered;
}

/** Every answered change is in `data`, at least in the state it was answered with. */
function missing(data: Data, acks: Acks): string[] {
  const out: string[] = [];
  for (const [id, state] of acks.charges) {
    const t = data.transactions[id];
    if (!t || t.type !== 'CASH_IN') out.push(`charge ${id} (answered ${state}) is missing`);
    else if (state === 'PAID' && t.status !== 'PAID') out.push(`charge ${id} was answered PAID but is ${t.status}`);
  }
  for (const [id, a] of acks.transfers) {
    const t = data.transactions[id];
    if (!t || t.type !== 'CASH_OUT') out.push(`transfer ${id} is missing`);
    else if (t.amount !== a.amount || t.idempotencyKey !== a.key) out.push(`transfer ${id} differs from its answer`);
  }
  for (const id of acks.merchants) if (!data.merchants[id]) out.push(`merchant ${id} is missing`);
  return out;
}

/** Every id of a control list, page after page (x-sandbox-next-cursor). */
async function pagedIds(base: string, path: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const res: Response = await fetch(`${base}${path}&limit=500${after === null ? '' : `&after=${after}`}`);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    ids.push(...((await res.json()) as { id: string }[]).map((t) => t.id));
    after = res.headers.get('x-sandbox-next-cursor');
  } while (after !== null);
  return ids;
}

describe('SIGKILL under concurrent mixed writes', () => {
  it(
    `keeps every answered change and the ledger invariant across ${TRIALS} kills`,
    async () => {
      const rand = prng(SEED);
      const acks: Acks = { charges: new Map(), transfers: new Map(), merchants: new Set(), replayMismatches: [], unexpected: [] };
      let totalAnswered = 0;
      let resets = 0;
      let running = await folder.start();
      for (let trial = 1; trial <= TRIALS; trial++) {
        const sb = running;
        if (trial % 5 === 3) {
          // a reset now and then: the data file is moved aside and the store starts afresh; what is
          // answered after it must survive the next kill like anything else
          const r = await call(sb.url, 'POST', '/_sandbox/reset', { body: {} });
          // a failure names the answer and the sandbox's last log lines (a 500 once seen under load: kept to be diagnosed)
          expect(r.status, `trial ${trial}: reset: ${JSON.stringify(r.body)}\n${sb.output().slice(-2000)}`).toBe(200);
          acks.charges.clear();
          acks.transfers.clear();
          acks.merchants.clear();
          resets++;
        }
        const tok = await token(sb.url);
        const before = {
          charges: new Set(acks.charges.keys()),
          transfers: new Set(acks.transfers.keys()),
          merchants: new Set(acks.merchants),
        };
        let killed = false;
        const writers = Array.from({ length: WRITERS }, (_, i) =>
          writer(sb.url, tok, prng(SEED * 31 + trial * 101 + i), acks, () => killed),
        );
        await new Promise((r) => setTimeout(r, int(rand, 150, 700)));
        sb.child.kill('SIGKILL');
        killed = true;
        await sb.exited;
        totalAnswered += (await Promise.all(writers)).reduce((s, n) => s + n, 0);

        // the files a restart reads: the snapshot is whole (every line parses, its end line counts them),
        // and with the log it holds every answered change
        const snap = await snapshotFile(path.join(folder.dir, 'db.json'));
        expect(snap.header.version, `trial ${trial}: db.json is whole`).toBe(SCHEMA_VERSION);
        const stored = await readStoreDataOffline(folder.dir);
        const data = stored.toData();
        expect(missing(data, acks), `trial ${trial}: answered changes present`).toEqual([]);
        // every index, rebuilt from the snapshot and the log, agrees with a full scan of the records
        expect(indexProblems(collectionsOfData(stored)), `trial ${trial}: indexes agree with a scan`).toEqual([]);
        const ledger = checkLedger(data);
        expect(ledger.problems, `trial ${trial}: ledger invariant`).toEqual([]);

        // the restarted sandbox serves this trial's records
        running = await folder.start();
        const tok2 = await token(running.url);
        const fresh = [...acks.charges.keys()]
          .filter((id) => !before.charges.has(id))
          .concat([...acks.transfers.keys()].filter((id) => !before.transfers.has(id)));
        for (const id of fresh.slice(0, 25)) {
          const r = await call(running.url, 'GET', `/v1/banking/transactions/${id}`, { token: tok2 });
          expect(r.status, `trial ${trial}: lookup of ${id} after restart`).toBe(200);
        }
        for (const id of [...acks.merchants].filter((m) => !before.merchants.has(m)).slice(0, 10)) {
          const r = await call(running.url, 'GET', `/v1/merchants/${id}`, { token: tok2 });
          expect(r.status, `trial ${trial}: merchant ${id} after restart`).toBe(200);
        }
        // the restarted sandbox pages its lists through those indexes: every transaction, newest first
        const newest = [...stored.collections.transactions.scan()];
        for (const [query, want] of [
          ['', newest],
          ['type=CASH_OUT', newest.filter((t) => t.type === 'CASH_OUT')],
          ['accountId=00000000-0000-4000-8000-000000000001', newest],
        ] as const) {
          expect(await pagedIds(running.url, `/_sandbox/transactions?${query}`), `trial ${trial}: ${query || 'all'} after restart`).toEqual(
            want.map((t) => t.id),
          );
        }
      }
      console.log(
        `sigkill-mixed: ${TRIALS} kills (${resets} after a reset), ${totalAnswered} answered changes (${acks.charges.size} charges, ` +
          `${[...acks.charges.values()].filter((s) => s === 'PAID').length} paid, ${acks.transfers.size} cash-outs, ${acks.merchants.size} merchants)`,
      );
      expect(acks.replayMismatches).toEqual([]);
      expect(acks.unexpected).toEqual([]);
      // the run proved something: changes were answered and then survived the kills
      expect(totalAnswered).toBeGreaterThan(TRIALS * 5);
      expect(acks.transfers.size + acks.charges.size).toBeGreaterThan(0);

      // a clean stop after all that exits 0 and leaves a consistent store
      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
      expect(checkLedger(await readStoreOffline(folder.dir)).problems).toEqual([]);
    },
    Math.max(120_000, TRIALS * 10_000),
  );
});
