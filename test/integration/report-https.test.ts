// The report's plain-http check (docs/report.md#plain-http) against a sandbox with HTTPS on: the journal
// records which requests came over plain HTTP, and the report names exactly those.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control } from '../helpers/control.js';
import { httpsPost, TOKEN_BODY } from '../helpers/https-client.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ file: true, httpsPort: 0 });
});
afterAll(() => sb?.stop());

describe('plain-http', () => {
  it('warns with the seqs of the requests that came over plain HTTP while HTTPS was on', async () => {
    const https = sb.running.listeners.find((l) => l.url.startsWith('https:'))!.url;
    const cert = await readFile(path.join(sb.dataDir!, 'cert.pem'), 'utf8');
    const token = await httpsPost(https, '/v1/oauth/token', TOKEN_BODY, cert);
    expect(token.status).toBe(200);
    const plain = await sb.request('GET', '/v1/banking/balance', { token: token.body.access_token });
    expect(plain.status).toBe(200);
    const journal = await control<any[]>(sb, 'GET', `/_sandbox/requests?accountId=${DEFAULT_ACCOUNT_ID}`);
    const balance = journal.find((e) => e.path === '/v1/banking/balance');
    const report = await control(sb, 'GET', `/_sandbox/report?accountId=${DEFAULT_ACCOUNT_ID}`);
    expect(report.checks.find((c: any) => c.id === 'plain-http')).toMatchObject({ outcome: 'warn', count: 1, evidence: [balance.seq] });
  });
});
