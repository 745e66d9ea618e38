// The HTTP half of scripts/container-check.sh: calls a sandbox published by a container and
// fails (exit 1, with the answer) when it does not behave. Usage:
//   node scripts/container-probe.mjs money <base-url>                  token + cash-in + lookup
//   node scripts/container-probe.mjs https <https-url> <cert.pem>      token over trusted HTTPS
//   node scripts/container-probe.mjs merchant-create <base-url>        prints the new merchant id
//   node scripts/container-probe.mjs merchant-get <base-url> <id>      the merchant is still there
//   node scripts/container-probe.mjs ready <base-url> <start-epoch-ms>  prints the ms from the start
//                                  to GET /_sandbox/health answering 200 (polled every 20 ms, 60 s at most)
import { readFileSync } from 'node:fs';
import https from 'node:https';

const CREDS = { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' };

function fail(what, res) {
  console.error(`probe: ${what}${res ? `: HTTP ${res.status} ${JSON.stringify(res.body)}` : ''}`);
  process.exit(1);
}

async function call(base, method, path, { body, token } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await r.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: r.status, body: parsed };
}

async function token(base) {
  const r = await call(base, 'POST', '/v1/oauth/token', { body: CREDS });
  if (r.status !== 200 || typeof r.body.access_token !== 'string') fail('token', r);
  return r.body.access_token;
}

const [cmd, base, arg] = process.argv.slice(2);
if (!cmd || !base) fail('usage: container-probe.mjs money|https|merchant-create|merchant-get <url> [arg]');

if (cmd === 'money') {
  const t = await token(base);
  console.log(`token: ok (${t.length} characters, bearer, expires_in 300)`);
  const charge = await call(base, 'POST', '/v1/banking/cash-in/pix', {
    token: t,
    body: { amount: 1234, description: 'container check', customer: { name: 'Maria Silva', document: '52998224725' } },
  });
  if (charge.status !== 201 || charge.body.status !== 'WAITING_PAYMENT' || !String(charge.body.pixCode).startsWith('000201'))
    fail('cash-in', charge);
  console.log(
    `cash-in: 201 ${charge.body.transactionId} WAITING_PAYMENT, pixCode ${charge.body.pixCode.length} chars, qrCode ${charge.body.qrCode.slice(0, 22)}...`,
  );
  const lookup = await call(base, 'GET', `/v1/banking/transactions/${charge.body.transactionId}`, { token: t });
  if (lookup.status !== 200 || lookup.body.data?.status !== 'WAITING_PAYMENT') fail('lookup', lookup);
  console.log('lookup: 200 WAITING_PAYMENT');
} else if (cmd === 'https') {
  const ca = readFileSync(arg, 'utf8');
  const status = await new Promise((resolve, reject) => {
    const req = https.request(`${base}/v1/oauth/token`, { method: 'POST', ca, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(JSON.stringify(CREDS));
  }).catch((e) => fail(`https: ${e.code ?? e.message}`));
  if (status !== 200) fail(`https token answered ${status}`);
  console.log('https: token 200 with the generated certificate trusted');
} else if (cmd === 'merchant-create') {
  const t = await token(base);
  const r = await call(base, 'POST', '/v1/merchants', {
    token: t,
    body: { name: 'Loja Persistente', document: '11222333000181', document_type: 'CNPJ', email: 'loja@example.com', phone: '11987654321' },
  });
  if (r.status !== 201 || !r.body.data?.merchant?.id) fail('merchant create', r);
  console.log(r.body.data.merchant.id);
} else if (cmd === 'merchant-get') {
  const t = await token(base);
  const r = await call(base, 'GET', `/v1/merchants/${arg}`, { token: t });
  if (r.status !== 200 || r.body.merchantId !== arg) fail(`merchant ${arg} after the restart`, r);
  console.log(`merchant ${arg} (${r.body.name}) is still there`);
} else if (cmd === 'ready') {
  const started = Number(arg);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`${base}/_sandbox/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) fail(`${base}/_sandbox/health did not answer 200 within 60 s (last: ${status || 'no answer'})`);
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(Date.now() - started);
} else fail(`unknown probe ${cmd}`);
