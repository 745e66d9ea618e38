// A named snapshot as a fixtures document (GET /_sandbox/snapshots/{name}/export,
// docs/configuration.md#fixtures): loaded with --fixtures or POST /_sandbox/reset, it starts a sandbox
// holding exactly the snapshot's records — the same ids, times, balances, lookups and merchants. Each
// account's clock is set at the instant the snapshot was taken (frozen, or flowing on from there), so
// that what was due stays due. Secrets leave as the hashes the store keeps; webhook secrets in clear,
// as the store keeps them (a receiver checks signatures with them).
import { tenantNowMs } from '../clock/clock.js';
import { nameOf } from '../domain/scope.js';
import { RECORD_SECTIONS, type Fixtures, type FixtureAccount, type FixtureWebhook } from '../schemas/fixtures.js';
import { imageRecords, type Image } from '../store/image.js';
import type { Account, CollectionName, Merchant, PixKeyEntry, Rule, SavedSnapshot, Stored, WebhookEndpoint } from '../store/model.js';

type Records = Map<CollectionName, Readonly<Stored>[]>;

/** A record without the store's seq (a loaded record gets one of its new store). */
function unstored<T extends Stored>(r: Readonly<T>): Omit<T, 'seq'> {
  const { seq: _seq, ...rest } = r;
  return rest;
}

const of = <T extends Stored>(records: Records, c: CollectionName): Readonly<T>[] => (records.get(c) ?? []) as Readonly<T>[];

const keyOf = (k: Readonly<PixKeyEntry>) => ({
  key: k.key,
  keyType: k.keyType,
  owner: { ...k.owner },
  unknown: k.unknown,
  createdAt: k.createdAt,
});
/** A rule as POST /_sandbox/rules takes it: its name, not its scoped store id (its scope is the section it goes in). */
const ruleOf = (r: Readonly<Rule>) => ({
  id: nameOf(r),
  ...(r.description !== undefined ? { description: r.description } : {}),
  match: r.match,
  outcome: r.outcome,
  createdAt: r.createdAt,
});

/** The keys and rules of one scope (an account's own, or null: sandbox-wide), as a fixtures section holds them. */
function arrangementsOf(records: Records, accountId: string | null): Pick<Fixtures, 'pixKeys' | 'rules'> {
  const pixKeys = of<PixKeyEntry>(records, 'pixKeys').filter((k) => (k.accountId ?? null) === accountId);
  const rules = of<Rule>(records, 'rules').filter((r) => (r.accountId ?? null) === accountId);
  return { ...(pixKeys.length ? { pixKeys: pixKeys.map(keyOf) } : {}), ...(rules.length ? { rules: rules.map(ruleOf) } : {}) };
}

function accountOf(a: Readonly<Account>, merchants: readonly Readonly<Merchant>[], sandboxMs: number, records: Records): FixtureAccount {
  return {
    id: a.id,
    name: a.name,
    client_id: a.clientId,
    client_secret_hash: a.secretHash,
    splitEnabled: a.splitEnabled,
    autoPayAfterSeconds: a.autoPayAfterSeconds,
    settleAfterSeconds: a.settleAfterSeconds,
    clock: { at: new Date(tenantNowMs(a.clock, sandboxMs)).toISOString(), frozen: (a.clock?.frozenAtMs ?? null) !== null },
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    merchants: merchants
      .filter((m) => m.accountId === a.id)
      .map((m) => ({
        id: m.id,
        walletId: m.walletId,
        name: m.name,
        document: m.document,
        document_type: m.documentType,
        email: m.email,
        phone: m.phone,
        status: m.status,
        client_id: m.clientId,
        client_secret_hash: m.secretHash,
        createdAt: m.createdAt,
        updatedAt: m.updatedAt,
      })),
    ...arrangementsOf(records, a.id),
  };
}

function webhookOf(e: Readonly<WebhookEndpoint>): FixtureWebhook {
  return {
    id: e.id,
    url: e.url,
    accountId: e.accountId,
    ...(e.events ? { events: [...e.events] } : {}),
    secret: e.secret,
    source: e.source,
    createdAt: e.createdAt,
  };
}

export function exportSnapshot(s: Readonly<SavedSnapshot>, image: Image, version: string): Fixtures {
  const records: Records = new Map();
  for (const [c, r] of imageRecords(image)) {
    let list = records.get(c);
    if (!list) records.set(c, (list = []));
    list.push(r);
  }
  const merchants = of<Merchant>(records, 'merchants');
  const doc: Fixtures = {
    about: `snapshot ${s.id} of ${s.accountId === null ? 'the whole sandbox' : `account ${s.accountId}`}, taken ${s.createdAt}; exported by pix-sandbox ${version}`,
    accounts: of<Account>(records, 'accounts').map((a) => accountOf(a, merchants, s.sandboxMs, records)),
    ...arrangementsOf(records, null),
    webhooks: of<WebhookEndpoint>(records, 'webhookEndpoints').map(webhookOf),
  };
  for (const c of RECORD_SECTIONS) (doc as Record<string, unknown>)[c] = of(records, c).map(unstored);
  return doc;
}
