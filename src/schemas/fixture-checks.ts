// What a fixture set must hold beyond its schema (./fixtures.ts), so that loading it makes exactly
// what the control calls would have made, or nothing: each thing passes the checks of the call that
// makes the same thing (./checks.ts), and the set holds together — no id or client_id used twice
// (a client_id shared by two clients locks one of them out), no document twice in an account, no
// endpoint, transaction, ledger entry, event, delivery or fault naming an account, merchant, wallet,
// endpoint, transaction or event the set does not hold, no balance below zero. Run beside the schema
// (validateBody), it reads the set as sent and looks only at fields of the shape it needs, so one
// answer names every problem (docs/configuration.md#fixtures).
import type { ErrorDetail } from '../domain/errors.js';
import { merchantCreateChecks, pixKeyChecks, ruleChecks, webhookEndpointChecks, type BodyCheck } from './checks.js';

type Item = Record<string, unknown>;
const record = (v: unknown): Item | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Item) : undefined);
const items = (v: unknown): Item[] => (Array.isArray(v) ? v.map((x) => record(x) ?? {}) : []);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Every problem `check` finds in each item of a list, at its place in the set. */
const eachChecked = (list: Item[], at: string, check: BodyCheck): ErrorDetail[] =>
  list.flatMap((item, i) => check(item).map((d) => ({ ...d, path: `${at}/${i}${d.path}` })));

/** Who holds each name (an id, a client_id): the first to claim it; a second claim is a problem, said at its place. */
class Names {
  readonly #holders = new Map<string, string>();
  constructor(
    private readonly out: ErrorDetail[],
    private readonly what: string,
  ) {}
  claim(name: unknown, path: string): void {
    if (typeof name !== 'string') return;
    const holder = this.#holders.get(name);
    if (holder === undefined) this.#holders.set(name, path);
    else this.out.push({ path, message: `is already the ${this.what} of ${holder.slice(0, holder.lastIndexOf('/'))}` });
  }
}

/** What the set holds by id besides its accounts: each thing's kind and account. */
type Owned = Map<string, { kind: string; account: string }>;

export const fixtureChecks: BodyCheck = (b) => {
  const out: ErrorDetail[] = [];
  const ids = new Names(out, 'id');
  const clientIds = new Names(out, 'client_id');
  const accounts = items(b.accounts);
  const accountIds = new Set(accounts.map((a) => text(a.id)).filter((id) => id !== undefined));
  const owned: Owned = new Map();
  const own = (id: unknown, kind: string, account: unknown) => {
    if (typeof id === 'string' && typeof account === 'string') owned.set(id, { kind, account });
  };
  accounts.forEach((a, i) => {
    const at = `/accounts/${i}`;
    ids.claim(a.id, `${at}/id`);
    clientIds.claim(a.client_id, `${at}/client_id`);
    out.push(...secretOnce(a, at));
    const documents = new Names(out, 'document');
    items(a.merchants).forEach((m, j) => {
      const mat = `${at}/merchants/${j}`;
      out.push(...merchantCreateChecks(m).map((d) => ({ ...d, path: `${mat}${d.path}` })), ...secretOnce(m, mat));
      ids.claim(m.id, `${mat}/id`);
      ids.claim(m.walletId, `${mat}/walletId`);
      clientIds.claim(m.client_id, `${mat}/client_id`);
      documents.claim(m.document, `${mat}/document`);
      own(m.id, 'merchant', a.id);
      own(m.walletId, 'wallet', a.id);
    });
  });
  out.push(...eachChecked(items(b.pixKeys), '/pixKeys', pixKeyChecks), ...eachChecked(items(b.rules), '/rules', ruleChecks));
  const defaultAccount = text(accounts[0]?.id);
  const webhooks = items(b.webhooks);
  out.push(...eachChecked(webhooks, '/webhooks', webhookEndpointChecks));
  webhooks.forEach((w, i) => {
    if (typeof w.accountId === 'string' && !accountIds.has(w.accountId))
      out.push({ path: `/webhooks/${i}/accountId`, message: 'is not the id of an account of the fixture set' });
    ids.claim(w.id, `/webhooks/${i}/id`);
    own(w.id, 'webhook endpoint', text(w.accountId) ?? defaultAccount);
  });
  out.push(...recordChecks(b, { ids, accountIds, owned, own }));
  return out;
};

/** A client's secret, in clear or as the hash an export writes: one of the two. */
function secretOnce(client: Item, at: string): ErrorDetail[] {
  if (client.client_secret !== undefined && client.client_secret_hash !== undefined)
    return [{ path: `${at}/client_secret_hash`, message: 'cannot be given with client_secret: give one of them' }];
  if (client.client_secret === undefined && client.client_secret_hash === undefined)
    return [{ path: `${at}/client_secret`, message: 'is required (or client_secret_hash, as an export writes it)' }];
  return [];
}

interface Held {
  ids: Names;
  accountIds: ReadonlySet<string>;
  owned: Owned;
  own: (id: unknown, kind: string, account: unknown) => void;
}

/**
 * The records an export adds (./fixtures.ts): each names only what the set holds, in the account it
 * belongs to, and the ledger leaves no balance below zero.
 */
function recordChecks(b: Item, held: Held): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const { ids, accountIds, owned, own } = held;
  /**
   * `field` of the item at `at` names a `kind` of the set, of `account`. An endpoint may be one that was
   * deleted (its deliveries, sends and faults stay): unknown to the set, it is not faulted.
   */
  const names = (item: Item, field: string, at: string, kind: string, account: unknown) => {
    const v = item[field];
    if (typeof v !== 'string') return;
    const thing = owned.get(v);
    if (!thing && kind === 'webhook endpoint') return;
    if (thing?.kind !== kind) out.push({ path: `${at}/${field}`, message: `is not the id of a ${kind} of the fixture set` });
    else if (thing.account !== account)
      out.push({ path: `${at}/${field}`, message: `is a ${kind} of another account than ${String(account)}` });
  };
  /** each record of a section: its id claimed, its account one of the set's, then what else it names */
  const section = (name: string, kind: string, check: (r: Item, at: string) => void) =>
    items(b[name]).forEach((r, i) => {
      const at = `/${name}/${i}`;
      ids.claim(r.id, `${at}/id`);
      if (typeof r.accountId === 'string' && !accountIds.has(r.accountId))
        out.push({ path: `${at}/accountId`, message: 'is not the id of an account of the fixture set' });
      check(r, at);
      own(r.id, kind, r.accountId);
    });
  section('transactions', 'transaction', (t, at) => {
    names(t, 'merchantId', at, 'merchant', t.accountId);
    items(t.split).forEach((s, j) => names(s, 'walletId', `${at}/split/${j}`, 'wallet', t.accountId));
  });
  section('events', 'event', (e, at) => names(e, 'transactionId', at, 'transaction', e.accountId));
  section('deliveries', 'delivery', (d, at) => {
    names(d, 'endpointId', at, 'webhook endpoint', d.accountId);
    names(d, 'eventId', at, 'event', d.accountId);
    names(d, 'transactionId', at, 'transaction', d.accountId);
  });
  section('webhookFaults', 'webhook fault', (f, at) => {
    names(f, 'endpointId', at, 'webhook endpoint', f.accountId);
    names(f, 'transactionId', at, 'transaction', f.accountId);
  });
  section('webhookSends', 'send', (s, at) => names(s, 'endpointId', at, 'webhook endpoint', s.accountId));
  section('idempotency', 'idempotency record', (r, at) => {
    if (r.principalId !== r.accountId) names(r, 'principalId', at, 'merchant', r.accountId);
    if (typeof r.principalId === 'string' && typeof r.key === 'string' && r.id !== `${r.principalId}:${r.key}`)
      out.push({ path: `${at}/id`, message: 'must be <principalId>:<key>' });
  });
  out.push(...ledgerChecks(items(b.ledger), held));
  return out;
}

/** Each side of an entry is the world, an account or a wallet of the set; no balance ends below zero. */
function ledgerChecks(entries: Item[], { ids, accountIds, owned }: Held): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const balances = new Map<string, number>();
  const first = new Map<string, string>();
  entries.forEach((e, i) => {
    const at = `/ledger/${i}`;
    ids.claim(e.id, `${at}/id`);
    if (typeof e.transactionId === 'string' && owned.get(e.transactionId)?.kind !== 'transaction')
      out.push({ path: `${at}/transactionId`, message: 'is not the id of a transaction of the fixture set' });
    const amount = typeof e.amount === 'number' ? e.amount : 0;
    for (const [side, sign] of [
      ['from', -1],
      ['to', 1],
    ] as const) {
      const ref = text(e[side]);
      if (ref === undefined || ref === 'world') continue;
      const colon = ref.indexOf(':');
      const [kind, id] = [ref.slice(0, colon), ref.slice(colon + 1)];
      const known = kind === 'account' ? accountIds.has(id) : kind === 'wallet' && owned.get(id)?.kind === 'wallet';
      if (!known) out.push({ path: `${at}/${side}`, message: 'must be world, or account:<id> or wallet:<id> of the fixture set' });
      balances.set(ref, (balances.get(ref) ?? 0) + sign * amount);
      if (!first.has(ref)) first.set(ref, `${at}/${side}`);
    }
  });
  for (const [ref, balance] of balances)
    if (balance < 0)
      out.push({ path: first.get(ref)!, message: `leaves the balance of ${ref} at ${balance} cents: only the world may go below zero` });
  return out;
}
