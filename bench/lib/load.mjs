// The load generator, run as its own process so that autocannon never shares an event loop
// with the server it measures. Input: one JSON argument; output: one JSON line on stdout.
//   { url, method, path, headers, body?, bodyKind?: "merchant" | "merchant-patch", paths?, uuidHeader?, connections, seconds, seed? }
// bodyKind "merchant" gives every request a merchant with a fresh, valid, unique CPF;
// "merchant-patch" a new name. `paths` makes the requests cycle through those paths.
// `uuidHeader` names a header that gets a fresh UUID on every request (x-idempotency-key).
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { cpfFrom } from './documents.mjs';

const opts = JSON.parse(process.argv[2]);

let next = opts.seed ?? 500_000_000;
const bodies = {
  merchant: () =>
    JSON.stringify({
      name: 'Loja Bench',
      document: cpfFrom(next++),
      document_type: 'CPF',
      email: 'bench@loja.example',
      phone: '11912345678',
    }),
};
bodies['merchant-patch'] = () => JSON.stringify({ name: `Renamed ${next++}` });
const makeBody = opts.bodyKind ? bodies[opts.bodyKind] : null;
let turn = 0;
const nextPath = opts.paths ? () => opts.paths[turn++ % opts.paths.length] : null;
const freshHeaders = opts.uuidHeader ? () => ({ ...(opts.headers ?? {}), [opts.uuidHeader]: randomUUID() }) : null;

const result = await autocannon({
  url: opts.url,
  connections: opts.connections,
  duration: opts.seconds,
  requests: [
    {
      method: opts.method,
      path: opts.path,
      headers: opts.headers ?? {},
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      ...(makeBody || nextPath || freshHeaders
        ? {
            setupRequest: (req) => ({
              ...req,
              ...(makeBody ? { body: makeBody() } : {}),
              ...(nextPath ? { path: nextPath() } : {}),
              ...(freshHeaders ? { headers: freshHeaders() } : {}),
            }),
          }
        : {}),
    },
  ],
});

process.stdout.write(
  `${JSON.stringify({
    seconds: result.duration,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    rps: result['2xx'] / result.duration,
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  })}\n`,
);
