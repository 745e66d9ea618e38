// How a control handler stays within the tenant its call is confined to (docs/control-api.md#self-service-control):
// a call made with a tenant's token reaches that tenant's records only, and another tenant's record is,
// to it, one that does not exist: the same 404, with the same message, as a missing id (no existence
// oracle). The operator's calls (tenant null) reach everything.
import { notFound } from '../domain/errors.js';
import type { Tenant } from '../http/tenant.js';
import type { Reads } from '../store/store.js';

/** The record, if the call may see it: missing, or of another tenant, is 404 `<what> was not found`. */
export function own<T extends { readonly accountId?: string | null | undefined }>(tenant: Tenant, record: T | undefined, what: string): T {
  if (!record || (tenant !== null && record.accountId !== tenant)) throw notFound(what);
  return record;
}

/**
 * The account a call names (a path id, a body's or a query's `accountId`), as the call may name it: a
 * tenant's call names its own when it names none, and any other is 404 as if it did not exist. The
 * operator's, the one given (undefined when none is), 404 when there is no such account; but as a
 * `filter` of a list that always took one (merchants, transactions, webhooks), an account that does not
 * exist filters everything out, as it always did.
 */
export function accountFor(tenant: Tenant, data: Reads, given: string | undefined, filter = false): string | undefined {
  const id = given?.toLowerCase() ?? tenant ?? undefined;
  if (id === undefined) return undefined;
  if (tenant !== null ? id !== tenant : !filter && !data.accounts.has(id)) throw notFound(`account ${id}`);
  return id;
}

/** accountFor as a list's filter (see there). */
export const accountFilter = (tenant: Tenant, data: Reads, given: string | undefined): string | undefined =>
  accountFor(tenant, data, given, true);

/** accountFor where the call must name an account (a path id): always one. */
export const namedAccount = (tenant: Tenant, data: Reads, id: string): string => accountFor(tenant, data, id)!;
