// The PIX key directory (DICT, docs/decisions.md#d25-the-key-directory): keys with their owners, loaded from fixtures and
// edited through the control API. Settlement reads it; a key marked `unknown` fails transfers
// with KEY_NOT_FOUND.
import type { AppContext } from '../context.js';
import { documentTypeOf } from '../domain/documents.js';
import { SandboxError, notFound } from '../domain/errors.js';
import { KEY_TYPE_MESSAGE, normalizeKey, normalizeKeyType, validatePixKey } from '../domain/pix-keys.js';
import type { PixKeyBody } from '../schemas/control.js';
import type { New, PixKeyEntry } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';

/** Checks what the schema cannot (key shape per kind, document check digits); returns the entry. */
export function pixKeyEntry(body: PixKeyBody, now: string): New<PixKeyEntry> {
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
  return { id: key, key, keyType, owner: { ...body.owner }, unknown: body.unknown ?? false, createdAt: now };
}

/** Adds or replaces a key; `created` tells which. */
export function putPixKey(tx: Tx, ctx: AppContext, body: PixKeyBody): { entry: Readonly<PixKeyEntry>; created: boolean } {
  const entry = pixKeyEntry(body, ctx.clock.nowIso());
  const created = !tx.pixKeys.has(entry.id);
  return { entry: tx.put('pixKeys', entry), created };
}

/** Finds a key as given in a URL: exact, or in its canonical (case-folded) spelling. */
export function findPixKey(data: Reads, raw: string): Readonly<PixKeyEntry> | undefined {
  return data.pixKeys.get(raw) ?? data.pixKeys.get(raw.trim().toLowerCase());
}

export function removePixKey(tx: Tx, raw: string): Readonly<PixKeyEntry> {
  const entry = findPixKey(tx, raw);
  if (!entry) throw notFound(`PIX key ${raw}`);
  tx.remove('pixKeys', entry.id);
  return entry;
}

export function clearPixKeys(tx: Tx): number {
  let n = 0;
  for (const k of tx.pixKeys.scan()) n += tx.remove('pixKeys', k.id) ? 1 : 0;
  return n;
}
