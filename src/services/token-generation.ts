// Token generations (docs/api.md#bearer-authentication, docs/decisions.md#d70-tokens-live-300-seconds-and-die-with-their-credentials):
// a store-wide counter in meta, kept across resets, hands each principal a new generation when it is
// made and whenever its credentials change. A token carries its principal's generation and passes
// only while they are equal, so an id made again (a reset, a deleted and recreated tenant) or a
// secret changed never lets an older token through, by construction.
import type { Tx } from '../store/store.js';

export function nextTokenGeneration(tx: Tx): number {
  const next = (tx.meta.tokenGeneration ?? 0) + 1;
  tx.setMeta('tokenGeneration', next);
  return next;
}
