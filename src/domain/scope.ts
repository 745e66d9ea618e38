// A tester's arrangements (outcome rules, PIX keys, HTTP faults) are sandbox-wide or one tenant's own
// (docs/decisions.md#d62-scoped-arrangements): a tenant's own are tried before the sandbox-wide ones,
// and a name a tester chooses (a rule id, a key) is unique within its scope, so tenants never collide.

/** The scope of a sandbox-wide arrangement in the indexes that file arrangements by scope. */
export const SANDBOX_WIDE = '*';

/** The scope an arrangement is filed under: its tenant, or SANDBOX_WIDE. */
export const scopeOf = (accountId: string | null | undefined): string => accountId ?? SANDBOX_WIDE;

/**
 * The store id of an arrangement named `name` (a rule id, a normalized key) in a scope: the name itself
 * when sandbox-wide (as every earlier release stored it), else the tenant and the name. No name holds a
 * space (rule ids, keys and UUIDs cannot), so two scopes never share an id.
 */
export const scopedId = (accountId: string | null | undefined, name: string): string => (accountId ? `${accountId} ${name}` : name);

/** The name back from a record's store id (the inverse of scopedId). */
export const nameOf = (r: { readonly id: string; readonly accountId?: string | null | undefined }): string =>
  r.accountId ? r.id.slice(r.accountId.length + 1) : r.id;
