// Creates transactions through the public API as an app under test would: cash-ins and cash-outs
// alternating on every connection, `amount` requests in all. Run as its own process (like
// load.mjs) so that autocannon never shares an event loop with the server. Input: one JSON
// argument { url, token, amount, connections }; output: one JSON line {ok, non2xx, errors, seconds}.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2]);
const auth = { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' };
let n = 0;
const cashIn = () =>
  JSON.stringify({
    amount: 1000 + (n % 5000),
    description: `Pedido ${n}`,
    externalId: `order-${n++}`,
    customer: { name: 'Maria Silva', document: '52998224725', email: 'maria@example.com' },
  });
const cashOut = () =>
  JSON.stringify({
    type: 'pix_key',
    description: `Saque ${n++}`,
    amount: '100',
    details: { name: 'Fornecedor', key: '52998224725', keyType: 'CPF' },
  });

const result = await autocannon({
  url: opts.url,
  connections: opts.connections ?? 8,
  amount: opts.amount,
  requests: [
    { method: 'POST', path: '/v1/banking/cash-in/pix', headers: auth, setupRequest: (req) => ({ ...req, body: cashIn() }) },
    {
      method: 'POST',
      path: '/v1/banking/cash-out/pix',
      setupRequest: (req) => ({ ...req, headers: { ...auth, 'x-idempotency-key': randomUUID() }, body: cashOut() }),
    },
  ],
});
process.stdout.write(`${JSON.stringify({ ok: result['2xx'], non2xx: result.non2xx, errors: result.errors, seconds: result.duration })}\n`);
