// A tenant's whole world as the HTTP APIs show it, to compare before and after a snapshot's restore,
// a tenant's reset or a load of an exported snapshot: its account and clock, merchants and wallets,
// every transaction (the control list, the detail with its ledger and events, the public lookup), its
// balance, webhook endpoints, deliveries and delivery faults. Read through a caller of its own (a
// test's sandbox, or a child process's URL), a page at a time where the list pages.
export type Caller = (method: string, path: string, token?: string) => Promise<{ status: number; body: any; headers: Headers }>;

async function ok(call: Caller, path: string, token?: string): Promise<any> {
  const r = await call('GET', path, token);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Every item of a control list, page after page (x-sandbox-next-cursor). */
async function allPages(call: Caller, path: string): Promise<any[]> {
  const items: any[] = [];
  let after: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const r = await call('GET', `${path}${sep}limit=1000${after === null ? '' : `&after=${after}`}`);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    items.push(...(r.body as any[]));
    after = r.headers.get('x-sandbox-next-cursor');
  } while (after !== null);
  return items;
}

export interface ListingOptions {
  /** an access token of the tenant's account: adds the public lookups and the balance */
  token?: string;
  /** leave the clock out (a tenant whose clock flows reads a later now each time) */
  withoutClock?: boolean;
}

export async function tenantListing(call: Caller, accountId: string, opts: ListingOptions = {}): Promise<Record<string, unknown>> {
  const q = `accountId=${accountId}`;
  const merchants = await allPages(call, `/_sandbox/merchants?${q}`);
  const transactions = await allPages(call, `/_sandbox/transactions?${q}`);
  const listing: Record<string, unknown> = {
    account: await ok(call, `/_sandbox/accounts/${accountId}`),
    merchants: await Promise.all(merchants.map((m) => ok(call, `/_sandbox/merchants/${m.id}`))),
    transactions,
    details: await Promise.all(transactions.map((t) => ok(call, `/_sandbox/transactions/${t.id}`))),
    endpoints: await allPages(call, `/_sandbox/webhooks?${q}`),
    deliveries: await allPages(call, `/_sandbox/webhooks/deliveries?${q}`),
    webhookFaults: await ok(call, `/_sandbox/webhooks/faults?${q}`),
  };
  if (!opts.withoutClock) {
    // its distance from real time moves with real time, frozen or not: the tenant's time is what it holds
    const { offsetSeconds: _moves, ...clock } = await ok(call, `/_sandbox/clock?${q}`);
    listing.clock = clock;
  }
  if (opts.token) {
    listing.lookups = await Promise.all(transactions.map((t) => ok(call, `/v1/banking/transactions/${t.id}`, opts.token)));
    listing.balance = await ok(call, '/v1/banking/balance', opts.token);
  }
  return listing;
}
