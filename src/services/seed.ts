// Loads a fixture set into an empty store (docs/configuration.md#fixtures): accounts with opening
// balances, their merchants, the PIX key directory, outcome rules and webhook endpoints, and what an
// export of a named snapshot adds (transactions, the ledger, webhook events and deliveries,
// idempotency records, delivery faults, sends), each as it was. Each tenant's origin (what its reset
// puts back) is kept as it stands once loaded.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { newAccountClock, tenantNowMs } from '../clock/clock.js';
import type { Config } from '../config.js';
import { hashSecret } from '../domain/credentials.js';
import { SandboxError } from '../domain/errors.js';
import { fixtureChecks } from '../schemas/fixture-checks.js';
import { fixturesSchema, RECORD_SECTIONS, type FixtureAccount, type Fixtures } from '../schemas/fixtures.js';
import { validateBody } from '../schemas/validator.js';
import type { Reads, Tx } from '../store/store.js';
import type { New, Stored, WebhookEndpoint } from '../store/model.js';
import { accountRef, walletRef } from '../domain/ledger.js';
import { accountRecord, openingEntry } from './accounts.js';
import { merchantRecords } from './merchants.js';
import { pixKeyEntry } from './pix-keys.js';
import { buildRule } from './rules.js';
import { nextTokenGeneration } from './token-generation.js';

export async function readFixtures(file: string): Promise<Fixtures> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new SandboxError('VALIDATION_ERROR', `cannot read the fixtures file ${file}: ${(e as Error).message}`);
  }
  try {
    return checkFixtures(JSON.parse(text));
  } catch (e) {
    if (e instanceof SandboxError) throw new SandboxError(e.code, `fixtures file ${file}: ${e.message}`, e.details);
    throw new SandboxError('VALIDATION_ERROR', `the fixtures file ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The schema and the checks of the control calls that make the same things: one answer names every problem. */
export function checkFixtures(value: unknown): Fixtures {
  return validateBody<Fixtures>(fixturesSchema, value, fixtureChecks);
}

/** The configured credentials of the default account (--client-id, --client-secret) replace the set's own. */
export function withConfiguredCredentials(f: Fixtures, config: Pick<Config, 'clientId' | 'clientSecret'>): Fixtures {
  const first = f.accounts[0]!;
  if (config.clientId) first.client_id = config.clientId;
  if (config.clientSecret) {
    first.client_secret = config.clientSecret;
    delete first.client_secret_hash;
  }
  return f;
}

/** Secrets are hashed before the synchronous commit (scrypt is asynchronous); they are in clear in the fixture file or the configuration. */
export async function hashFixtureSecrets(f: Fixtures): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const secrets = f.accounts.flatMap((a) => [a.client_secret, ...(a.merchants ?? []).map((m) => m.client_secret)]);
  await Promise.all(secrets.map(async (s) => s !== undefined && hashes.set(s, await hashSecret(s, 'published'))));
  return hashes;
}

/** A section's PIX keys and rules, in a scope (an account's own, or null: sandbox-wide), at the time an export gives or now. */
function seedArrangements(
  tx: Tx,
  section: Pick<Fixtures, 'pixKeys' | 'rules'>,
  accountId: string | null,
  now: string,
  newId: () => string,
) {
  for (const k of section.pixKeys ?? []) tx.put('pixKeys', pixKeyEntry(k, accountId, k.createdAt ?? now));
  for (const r of section.rules ?? []) tx.put('rules', buildRule(r as never, accountId, newId(), r.createdAt ?? now));
}

/** A client's stored secret: the hash an export gives, or the hash of the secret given in clear. */
const secretOf = (client: { client_secret?: string; client_secret_hash?: string }, hashes: Map<string, string>): string =>
  client.client_secret_hash ?? hashes.get(client.client_secret!)!;

export function seed(tx: Tx, f: Fixtures, hashes: Map<string, string>, now: string, newId: () => string): void {
  const sandboxMs = Date.parse(now);
  for (const fa of f.accounts) seedAccount(tx, fa, hashes, sandboxMs, newId, now);
  seedArrangements(tx, f, null, now, newId);
  const defaultAccount = f.accounts[0]!.id;
  for (const w of f.webhooks ?? []) {
    const ep: New<WebhookEndpoint> = {
      id: w.id ?? newId(),
      accountId: w.accountId ?? defaultAccount,
      url: w.url,
      events: w.events ?? null,
      secret: w.secret ?? `whsec_${randomBytes(18).toString('base64url')}`,
      source: w.source ?? 'config',
      createdAt: w.createdAt ?? now,
    };
    tx.put('webhookEndpoints', ep);
  }
  // what an export holds besides, as the store kept it (the checks made sure it holds together)
  for (const c of RECORD_SECTIONS) for (const r of f[c] ?? []) tx.put(c, r as New<Stored> as never);
  for (const a of f.accounts) tx.keepOrigin(a.id, now);
}

function seedAccount(
  tx: Tx,
  fa: FixtureAccount,
  hashes: Map<string, string>,
  sandboxMs: number,
  newId: () => string,
  sandboxNow: string,
): void {
  const { clock: asked, ...a } = fa;
  const clock = newAccountClock(asked, sandboxMs);
  // an account with its own clock starts on it: its records carry that clock's time
  const now = new Date(tenantNowMs(clock, sandboxMs)).toISOString();
  const { pixKeys, rules, ...fields } = a;
  const account = accountRecord(
    { ...fields, clientId: a.client_id, secretHash: secretOf(a, hashes), tokenGeneration: nextTokenGeneration(tx), clock },
    a.createdAt ?? now,
  );
  tx.put('accounts', { ...account, updatedAt: a.updatedAt ?? account.updatedAt });
  if (a.balance) tx.put('ledger', openingEntry(accountRef(a.id), a.balance, newId(), now));
  for (const m of a.merchants ?? []) {
    const { client_id, client_secret: _secret, client_secret_hash: _hash, balance, createdAt, updatedAt, ...fields } = m;
    const { merchant, wallet } = merchantRecords(
      {
        ...fields,
        accountId: a.id,
        status: m.status ?? 'ACTIVE',
        clientId: client_id,
        secretHash: secretOf(m, hashes),
        tokenGeneration: nextTokenGeneration(tx),
      },
      createdAt ?? now,
    );
    tx.put('merchants', { ...merchant, updatedAt: updatedAt ?? merchant.updatedAt });
    tx.put('wallets', wallet);
    if (balance) tx.put('ledger', openingEntry(walletRef(wallet.id), balance, newId(), now));
  }
  // its own keys and rules carry the sandbox-wide time, as the sandbox-wide ones do
  seedArrangements(tx, { pixKeys, rules }, a.id, sandboxNow, newId);
}

/** A store is empty until fixtures have been loaded into it. */
export const isEmpty = (data: Reads): boolean => data.accounts.size === 0;
