// What an app makes of one tenant, for the bench sections that fill a journal (journal, report): its
// token, charges (a JSON body, an answer holding a QR image), cash-outs (a body and an idempotency key)
// and lookups of its charges, WIDTH requests at a time.
import { randomUUID } from 'node:crypto';

const WIDTH = 16;

/** A JSON call; throws on an answer that is not 2xx. */
export async function call(url, method, p, body, headers = {}) {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * A new tenant named `name` and its `n` requests: a token first (and every `tokenEvery` requests), then 5 %
 * charges, 5 % cash-outs, the rest lookups of its charges. Answers the account's id.
 */
export async function tenantLoad(url, name, n, { tokenEvery = Infinity } = {}) {
  const a = await call(url, 'POST', '/_sandbox/accounts', { name, balance: 1_000_000_000, settleAfterSeconds: 86_400 });
  const creds = { client_id: a.client_id, client_secret: a.client_secret };
  const token = async () => ({ authorization: `Bearer ${(await call(url, 'POST', '/v1/oauth/token', creds)).access_token}` });
  let auth = await token();
  const ids = [];
  let made = 1;
  const one = async (k) => {
    if (k % tokenEvery === 0) auth = await token();
    else if (k % 20 === 0 || ids.length === 0) {
      const c = await call(
        url,
        'POST',
        '/v1/banking/cash-in/pix',
        { amount: 1000 + k, description: `order ${k}`, customer: { name: 'Maria Silva', document: '52998224725' } },
        auth,
      );
      ids.push(c.transactionId);
    } else if (k % 20 === 1)
      await call(
        url,
        'POST',
        '/v1/banking/cash-out/pix',
        { type: 'pix_key', description: `payout ${k}`, amount: '100', details: { name: 'Fornecedor', key: '11144477735', keyType: 'CPF' } },
        { ...auth, 'x-idempotency-key': randomUUID() },
      );
    else await call(url, 'GET', `/v1/banking/transactions/${ids[k % ids.length]}`, undefined, auth);
  };
  await Promise.all(
    Array.from({ length: WIDTH }, async () => {
      while (made < n) await one(made++);
    }),
  );
  return a.id;
}
