// Loads a fixture set into an empty store: accounts with opening balances, their merchants,
// the PIX key directory, outcome rules and webhook endpoints.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { newAccountClock, tenantNowMs } from '../clock/clock.js';
import { hashSecret } from '../domain/credentials.js';
import { SandboxError } from '../domain/errors.js';
import { webhookUrlProblem } from '../domain/webhook-targets.js';
import { fixturesSchema, type Fixtures } from '../schemas/fixtures.js';
import { ruleInputSchema } from '../schemas/control.js';
import { validateBody } from '../schemas/validator.js';
import type { Reads, Tx } from '../store/store.js';
import type { New, WebhookEndpoint } from '../store/model.js';
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

export function checkFixtures(value: unknown): Fixtures {
  const fixtures = validateBody<Fixtures>(fixturesSchema, value);
  // what the fixture schema leaves to the control API's own checks: each rule's body, and each
  // PIX key's shape per kind and check digits, sandbox-wide and in each account's own section
  const sections = [{ at: '', of: fixtures }, ...fixtures.accounts.map((a, i) => ({ at: `/accounts/${i}`, of: a }))];
  for (const { at, of } of sections) {
    checkEach(of.rules, 'rule', `${at}/rules`, (r) => validateBody(ruleInputSchema, r));
    checkEach(of.pixKeys, 'PIX key', `${at}/pixKeys`, (k) => pixKeyEntry(k, null, ''));
  }
  // the URL rule of every way an endpoint is made (docs/decisions.md#d66-every-webhook-attempt-is-recorded)
  checkEach(fixtures.webhooks, 'webhook', '/webhooks', (w) => {
    const problem = webhookUrlProblem(w.url);
    if (problem) throw new SandboxError('VALIDATION_ERROR', `url ${problem}`, [{ path: '/url', message: problem }]);
  });
  return fixtures;
}

/** Runs `check` on each item; a refusal names the item and points its details into the file. */
function checkEach<T>(items: T[] | undefined, what: string, path: string, check: (item: T) => unknown): void {
  items?.forEach((item, i) => {
    try {
      check(item);
    } catch (e) {
      const err = e as SandboxError;
      throw new SandboxError(
        'VALIDATION_ERROR',
        `${what} ${i}: ${err.message}`,
        err.details.map((d) => ({ ...d, path: `${path}/${i}${d.path}` })),
      );
    }
  });
}

/** Secrets are hashed before the synchronous commit (scrypt is asynchronous); they are in clear in the fixture file or the configuration. */
export async function hashFixtureSecrets(f: Fixtures): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const secrets = f.accounts.flatMap((a) => [a.client_secret, ...(a.merchants ?? []).map((m) => m.client_secret)]);
  await Promise.all(secrets.map(async (s) => hashes.set(s, await hashSecret(s, 'published'))));
  return hashes;
}

/** A section's PIX keys and rules, in a scope (an account's own, or null: sandbox-wide); they carry the sandbox-wide time. */
function seedArrangements(
  tx: Tx,
  section: Pick<Fixtures, 'pixKeys' | 'rules'>,
  accountId: string | null,
  now: string,
  newId: () => string,
) {
  for (const k of section.pixKeys ?? []) tx.put('pixKeys', pixKeyEntry(k, accountId, now));
  for (const r of section.rules ?? []) tx.put('rules', buildRule(r as never, accountId, newId(), now));
}

export function seed(tx: Tx, f: Fixtures, hashes: Map<string, string>, now: string, newId: () => string): void {
  const sandboxNow = now;
  const sandboxMs = Date.parse(now);
  for (const fa of f.accounts) {
    const { clock: asked, ...a } = fa;
    const clock = newAccountClock(asked, sandboxMs);
    // an account with its own clock starts on it: its records carry that clock's time
    const now = new Date(tenantNowMs(clock, sandboxMs)).toISOString();
    const tokenGeneration = nextTokenGeneration(tx);
    tx.put(
      'accounts',
      accountRecord({ ...a, clientId: a.client_id, secretHash: hashes.get(a.client_secret)!, tokenGeneration, clock }, now),
    );
    if (a.balance) tx.put('ledger', openingEntry(accountRef(a.id), a.balance, newId(), now));
    for (const m of a.merchants ?? []) {
      const { client_id, client_secret, balance, ...fields } = m;
      const { merchant, wallet } = merchantRecords(
        {
          ...fields,
          accountId: a.id,
          status: m.status ?? 'ACTIVE',
          clientId: client_id,
          secretHash: hashes.get(client_secret)!,
          tokenGeneration: nextTokenGeneration(tx),
        },
        now,
      );
      tx.put('merchants', merchant);
      tx.put('wallets', wallet);
      if (balance) tx.put('ledger', openingEntry(walletRef(wallet.id), balance, newId(), now));
    }
    seedArrangements(tx, a, a.id, sandboxNow, newId);
  }
  seedArrangements(tx, f, null, sandboxNow, newId);
  const defaultAccount = f.accounts[0]!.id;
  for (const w of f.webhooks ?? []) {
    const ep: New<WebhookEndpoint> = {
      id: newId(),
      accountId: w.accountId ?? defaultAccount,
      url: w.url,
      events: (w.events as WebhookEndpoint['events']) ?? null,
      secret: w.secret ?? `whsec_${randomBytes(18).toString('base64url')}`,
      source: 'config',
      createdAt: now,
    };
    tx.put('webhookEndpoints', ep);
  }
}

/** A store is empty until fixtures have been loaded into it. */
export const isEmpty = (data: Reads): boolean => data.accounts.size === 0;
