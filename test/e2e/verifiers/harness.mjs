// Runs the Node.js verifier of docs/webhooks.md (written beside this file as webhook-signature.mjs by
// test/e2e/webhook-verifiers.test.ts) on cases read from stdin, one a line:
// "<base64 raw body> <base64 header, or -> <base64 secret> <tolerance in seconds>"; prints true or false for each.
import { createInterface } from 'node:readline';
import { verifyWebhookSignature } from './webhook-signature.mjs';

const b64 = (s) => Buffer.from(s, 'base64');
for await (const line of createInterface({ input: process.stdin })) {
  if (!line) continue;
  const [body, header, secret, tolerance] = line.split(' ');
  console.log(
    verifyWebhookSignature(b64(body), header === '-' ? undefined : b64(header).toString(), b64(secret).toString(), Number(tolerance)),
  );
}
