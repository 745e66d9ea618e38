// The PIX key directory (DICT, docs/decisions.md#d25-the-key-directory): keys with their owners, loaded from fixtures and
// edited through the control API. Settlement reads it; a key marked `unknown` fails transfers
// with KEY_NOT_FOUND. An entry is sandbox-wide, or one tenant's own (docs/decisions.md#d62-scoped-arrangements):
// a tenant's own entry of a key shadows the sandbox-wide entry of that key for its transfers.
import type { AppContext } from '../context.js';
import { documentTypeOf } from '../domain/documents.js';
import { SandboxError, notFound } from '../domain/errors.js';
import { KEY_TYPE_MESSAGE, normalizeKey, normalizeKeyType, validatePixKey } from '../domain/pix-keys.js';
import { scopedId, scopeOf } from '../domain/scope.js';
import type { PixKeyBody } from '../schemas/control.js';
import type { New, PixKeyEntry } from '../store/model.js';
import type { ScanOptions } from '../store/collection.js';
import type { Reads, Tx } from '../store/store.js';

type KeyFields = Pick<PixKeyBody, 'key' | 'keyType' | 'owner' | 'unknown'>;

/** Checks what the schema cannot (key shape per kind, document check digits); returns the entry, in its scope (null: sandbox-wide). */
export function pixKeyEntry(body: KeyFields, accountId: string | null, now: string): New<PixKeyEntry> {
  const keyType = normalizeKeyType(body.keyType);
  if (!keyType)
    throw new SandboxError('VALIDATION_ERROR', `keyType ${KEY_TYPE_MESSAGE}`, [{ path: '/keyType', message: 'is not a key kind' }]);
  const problem = validatePixKey(keyType, body.key);
  if (problem) throw new SandboxError('VALIDATION_ERROR', problem, [{ path: '/key', message: problem.replace(/^key /, '') }]);
  if (!documentTypeOf(body.owner.document))
    throw new SandboxError('VALIDATION_ERROR', 'owner.document must be a CPF or CNPJ with valid check digits', [
      { path: '/owner/document', message: 'must be a CPF or CNPJ with valid check digits' },
    ]);
  const key = normalizeKey(keyType, body.key);
  return {
    id: scopedId(accountId, key),
    ...(accountId ? { accountId } : {}),
    key,
    keyType,
    owner: { ...body.owner },
    unknown: body.unknown ?? false,
    createdAt: now,
  };
}

/** Adds or replaces a key in a scope; `created` tells which. */
export function putPixKey(
  tx: Tx,
  ctx: AppContext,
  body: KeyFields,
  accountId: string | null,
): { entry: Readonly<PixKeyEntry>; created: boolean } {
  const entry = pixKeyEntry(body, accountId, ctx.clock.nowIso());
  const created = !tx.pixKeys.has(entry.id);
  return { entry: tx.put('pixKeys', entry), created };
}

/** The entry a tenant's transfer to `key` is settled by: the tenant's own, else the sandbox-wide one (two lookups). */
export function keyEntryFor(data: Reads, accountId: string, key: string): Readonly<PixKeyEntry> | undefined {
  return data.pixKeys.get(scopedId(accountId, key)) ?? data.pixKeys.get(key);
}

/** Finds a key of a scope as given in a URL: exact, or in its canonical (case-folded) spelling. */
function findPixKey(data: Reads, accountId: string | null, raw: string): Readonly<PixKeyEntry> | undefined {
  // no key holds a space: one that does is none, never another scope's store id
  if (/\s/.test(raw.trim())) return undefined;
  return data.pixKeys.get(scopedId(accountId, raw)) ?? data.pixKeys.get(scopedId(accountId, raw.trim().toLowerCase()));
}

/** One tenant's own keys, or every key of every scope, oldest first. */
export const listPixKeys = (data: Reads, accountId: string | undefined, opts: ScanOptions): Iterable<Readonly<PixKeyEntry>> =>
  accountId ? data.pixKeys.find('byScope', accountId, opts) : data.pixKeys.scan(opts);

/** findPixKey, or 404 naming the key and its scope. */
export function requirePixKey(data: Reads, accountId: string | null, raw: string): Readonly<PixKeyEntry> {
  const entry = findPixKey(data, accountId, raw);
  if (!entry) throw notFound(accountId ? `PIX key ${raw} of account ${accountId}` : `sandbox-wide PIX key ${raw}`);
  return entry;
}

export function removePixKey(tx: Tx, accountId: string | null, raw: string): Readonly<PixKeyEntry> {
  const entry = requirePixKey(tx, accountId, raw);
  tx.remove('pixKeys', entry.id);
  return entry;
}

/** Removes one tenant's own keys, or (no accountId) every key of every scope. */
export function clearPixKeys(tx: Tx, accountId?: string): number {
  const ids = [...(accountId ? tx.pixKeys.find('byScope', scopeOf(accountId)) : tx.pixKeys.scan())].map((k) => k.id);
  for (const id of ids) tx.remove('pixKeys', id);
  return ids.length;
}
