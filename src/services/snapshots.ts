// Named snapshots and a tenant's own reset (docs/control-api.md#snapshots,
// docs/decisions.md#d75-named-snapshots-and-a-tenants-reset). A snapshot is one tenant's whole world
// (or, without an account, the whole sandbox's state) as it stood at one instant: saved to its file
// and made durable before it is named, kept in memory as an image while the sandbox runs. A restore
// puts the scope back as one change — a small op naming the snapshot, so a crash leaves the old state
// or the new — changing only the records that differ; the tenant keeps its id and credentials, and
// its clock is put back at the instant the snapshot was taken, so that what was due stays due. A
// tenant's reset is a restore from its origin, kept when it was created or loaded from fixtures; its
// clock keeps the settings it was made with. The costs are the store's (docs/store.md#named-snapshots).
import { realClock, tenantClockAt, tenantNowMs } from '../clock/clock.js';
import type { AppContext } from '../context.js';
import { notFound, SandboxError } from '../domain/errors.js';
import type { SnapshotSaveBody } from '../schemas/control-sandbox.js';
import { imageCounts, plainRecords, type Image } from '../store/image.js';
import type { Account, SavedSnapshot } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { defaultAccount, requireAccount } from './accounts.js';
import { ensureConfigEndpoint } from './webhook-endpoints.js';

export function requireSnapshot(data: Reads, name: string): Readonly<SavedSnapshot> {
  const s = data.savedSnapshots.get(name);
  if (!s) throw notFound(`snapshot ${name}`);
  return s;
}

/** The snapshots (or one tenant's), oldest first. */
export const listSnapshots = (data: Reads, accountId?: string): Readonly<SavedSnapshot>[] => [
  ...(accountId === undefined
    ? data.savedSnapshots.scan({ order: 'oldest' })
    : data.savedSnapshots.find('byAccount', accountId, { order: 'oldest' })),
];

function refuseTaken(data: Reads, name: string, replace: boolean | undefined): Readonly<SavedSnapshot> | undefined {
  const taken = data.savedSnapshots.get(name);
  if (taken && !replace) throw new SandboxError('CONFLICT', `a snapshot named ${name} exists; send replace: true to replace it`);
  return taken;
}

/** A tenant that an advance is walking is held at its step's instant: it is saved or put back once the advance has answered. */
function refuseWalking(ctx: AppContext, accountId: string): void {
  if (ctx.walking.has(accountId))
    throw new SandboxError('INVALID_STATE', `an advance is walking the clock of account ${accountId}; try again once it has answered`);
}

/** Saves the scope as it stands now under `name`; answers once its file and its name are durable. */
export async function saveSnapshot(ctx: AppContext, body: SnapshotSaveBody): Promise<Readonly<SavedSnapshot>> {
  const store = ctx.store;
  const accountId = body.accountId?.toLowerCase() ?? null;
  if (accountId !== null) {
    requireAccount(store, accountId);
    refuseWalking(ctx, accountId);
  }
  refuseTaken(store, body.name, body.replace);
  // one instant: the records are copied out now; the file is written from the copy
  const image = store.capture(accountId);
  const generation = store.generation;
  const sandboxMs = ctx.clock.nowMs();
  const createdAt = new Date(accountId === null ? sandboxMs : ctx.nowMsOf(accountId)).toISOString();
  const file = store.shelf.newFile(body.name);
  const bytes = await store.shelf.save({ name: body.name, accountId, sandboxMs }, file, image);
  const counts = imageCounts(image);
  delete counts.origins; // the tenant's own bookkeeping, not a record it shows
  let replaced: Readonly<SavedSnapshot> | undefined;
  let saved: Readonly<SavedSnapshot>;
  try {
    saved = await store.commit((tx) => {
      // a whole reset or restore meanwhile: the copy is of data that is gone, and a reset's catalog (and files) went with it
      if (store.generation !== generation)
        throw new SandboxError(
          'CONFLICT',
          `the sandbox was reset or restored whole while snapshot ${body.name} was being saved; save it again`,
        );
      if (accountId !== null) requireAccount(tx, accountId); // deleted meanwhile
      replaced = refuseTaken(tx, body.name, body.replace);
      return tx.put('savedSnapshots', { id: body.name, accountId, file, createdAt, sandboxMs, counts, bytes });
    });
  } catch (e) {
    await store.shelf.retire(file);
    throw e;
  }
  if (replaced) await store.shelf.retire(replaced.file);
  return saved;
}

export async function deleteSnapshot(ctx: AppContext, name: string): Promise<void> {
  const s = await ctx.store.commit((tx) => {
    const found = requireSnapshot(tx, name);
    tx.remove('savedSnapshots', name);
    return found;
  });
  await ctx.store.shelf.retire(s.file);
}

/** The snapshot's records as an image: kept in memory, or read again from its file. */
export async function snapshotImage(ctx: AppContext, s: Readonly<SavedSnapshot>): Promise<Image> {
  const store = ctx.store;
  const image = await store.shelf.image(s.file, (records) => store.imageOf(records)).catch(() => null);
  if (!image) throw new SandboxError('INVALID_STATE', `snapshot ${s.id} cannot be read (its file is gone)`);
  return image;
}

/** The tenant's clock put back at the instant the snapshot was taken: frozen there, or flowing on from there. */
function clockAtSnapshot(saved: Readonly<Account>, takenAtSandboxMs: number, sandboxNowMs: number): Account['clock'] {
  const at = tenantNowMs(saved.clock, takenAtSandboxMs);
  return tenantClockAt(at, (saved.clock?.frozenAtMs ?? null) !== null, sandboxNowMs);
}

/** The tenant's account as a restore makes it: as `saved` holds it, with its id and credentials as they are now. */
const keepingCredentials = (saved: Readonly<Account>, live: Readonly<Account>): Account => ({
  ...saved,
  clientId: live.clientId,
  secretHash: live.secretHash,
});

/** Puts the snapshot's scope back as it was; answers once that one change is durable. */
export async function restoreSnapshot(ctx: AppContext, name: string): Promise<Readonly<SavedSnapshot>> {
  const store = ctx.store;
  const s = requireSnapshot(store, name);
  if (s.accountId !== null) refuseWalking(ctx, s.accountId);
  const image = await snapshotImage(ctx, s);
  return store.commit((tx) => {
    const now = tx.savedSnapshots.get(name);
    if (now?.file !== s.file) throw new SandboxError('CONFLICT', `snapshot ${name} was replaced or deleted while it was being restored`);
    if (s.accountId === null) {
      // the sandbox-wide clock back at the instant it was taken (every tenant's clock is relative to it)
      tx.restore({ scope: null, from: { file: s.file }, clockOffsetMs: s.sandboxMs - realClock.nowMs() }, image);
      return s;
    }
    const live = tx.accounts.get(s.accountId);
    if (!live)
      throw new SandboxError('INVALID_STATE', `account ${s.accountId} no longer exists: its snapshots can be exported, not restored`);
    refuseWalking(ctx, s.accountId);
    const saved = plainRecords(image, 'accounts')[0] as Readonly<Account>;
    const account = { ...keepingCredentials(saved, live), clock: clockAtSnapshot(saved, s.sandboxMs, ctx.clock.nowMs()) };
    tx.restore({ scope: s.accountId, from: { file: s.file }, account }, image);
    keepConfigEndpoint(tx, ctx, s.accountId);
    return s;
  });
}

/** The default account's --webhook-url endpoint is configuration: it stays as configured whatever a restore brought back. */
function keepConfigEndpoint(tx: Tx, ctx: AppContext, accountId: string): void {
  if (defaultAccount(tx)?.id === accountId) ensureConfigEndpoint(tx, ctx);
}

/**
 * Puts the tenant back as it stood right after it was created or loaded from fixtures (its origin):
 * its merchants, wallets, balances, settings and clock settings, webhook endpoints and delivery
 * faults; no transaction, delivery or idempotency record. Keeps its id and credentials.
 */
export async function resetAccount(ctx: AppContext, id: string): Promise<Readonly<Account>> {
  const store = ctx.store;
  requireAccount(store, id);
  refuseWalking(ctx, id);
  return store.commit((tx) => {
    const live = requireAccount(tx, id);
    const origin = store.originOf(id);
    if (!origin)
      throw new SandboxError(
        'INVALID_STATE',
        `account ${id} was created by a release that kept no origin for it: a whole-sandbox reset (POST /_sandbox/reset) loads one`,
      );
    const account = keepingCredentials(plainRecords(origin, 'accounts')[0] as Readonly<Account>, live);
    tx.restore({ scope: id, from: { origin: id }, account }, origin);
    keepConfigEndpoint(tx, ctx, id);
    return tx.accounts.get(id)!;
  });
}
