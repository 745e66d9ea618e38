// A data file written before deliveries and idempotency records carried their tenant's id: loading
// gives them the id (from the endpoint, or the principal: an account or a merchant), so each lands in
// its tenant's group of the ordered indexes (docs/decisions.md#d50-a-clock-per-tenant).
import { describe, expect, it } from 'vitest';
import { StoreData } from '../../src/store/data.js';
import { emptyData } from '../../src/store/model.js';

const ACCOUNT = '0000000a-0000-4000-8000-00000000000a';
const MERCHANT = '0000000c-0000-4000-8000-00000000000c';
const ENDPOINT = '0000000e-0000-4000-8000-00000000000e';
const AT = '2030-01-01T00:00:00.000Z';

function loaded(): StoreData {
  const data = new StoreData(emptyData('secret', AT).meta);
  data.load('accounts', ACCOUNT, { id: ACCOUNT, seq: 1, name: 'a', clientId: 'client-a', createdAt: AT, updatedAt: AT });
  data.load('merchants', MERCHANT, { id: MERCHANT, seq: 1, accountId: ACCOUNT, document: '52998224725', createdAt: AT });
  data.load('webhookEndpoints', ENDPOINT, { id: ENDPOINT, seq: 1, accountId: ACCOUNT, url: 'http://127.0.0.1:1/', createdAt: AT });
  data.load('deliveries', 'd1', {
    id: 'd1',
    seq: 1,
    endpointId: ENDPOINT,
    eventId: 'e1',
    eventType: 'cashin.created',
    transactionId: 't1',
    status: 'PENDING',
    attempts: [],
    nextAttemptAt: AT,
    createdAt: AT,
  });
  for (const [seq, principalId] of [
    [1, ACCOUNT],
    [2, MERCHANT],
  ] as const)
    data.load('idempotency', `${principalId}:k`, {
      id: `${principalId}:k`,
      seq,
      principalId,
      key: 'k',
      bodyHash: 'h',
      statusCode: 201,
      body: {},
      createdAt: AT,
      expiresAt: AT,
    });
  return data;
}

describe('loading records written before they carried their account', () => {
  it('a delivery gets its endpoint’s account, an idempotency record its principal’s (account or merchant)', () => {
    const { collections: c } = loaded();
    expect(c.deliveries.get('d1')?.accountId).toBe(ACCOUNT);
    expect(c.idempotency.get(`${ACCOUNT}:k`)?.accountId).toBe(ACCOUNT);
    expect(c.idempotency.get(`${MERCHANT}:k`)?.accountId).toBe(ACCOUNT);
    const upTo = Date.parse(AT);
    expect([...c.deliveries.orderedIn('byNextAttempt', ACCOUNT, upTo)].map((d) => d.id)).toEqual(['d1']);
    expect([...c.idempotency.orderedIn('byExpiry', ACCOUNT, upTo)].map((r) => r.principalId).sort()).toEqual([ACCOUNT, MERCHANT].sort());
  });
});
