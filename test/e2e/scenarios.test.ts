// The CLI end to end, as CI runs it: every shipped scenario through `scenario run --start`, a
// deliberately broken one, an invalid one, and the control commands against a running sandbox.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAll } from '../../src/scenarios/load.js';
import { cli as run } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const cli = (args: string[], env: Record<string, string> = {}, cwd = process.cwd()) => run(args, { env, cwd });

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pix-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('pix-sandbox scenario run', () => {
  it('runs every shipped scenario (--shipped, from another folder) against an in-process sandbox, and they all pass', async () => {
    const out = path.join(tmp, 'all.xml');
    const started = Date.now();
    // from a folder without scenarios, as an app that installed the package runs them
    const r = await cli(['scenario', 'run', '--shipped', '--start', '--reporter', 'junit', '--out', out], {}, tmp);
    const seconds = (Date.now() - started) / 1000;
    const tail = `${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`;
    expect(r.stderr + r.stdout, tail).not.toMatch(/✗/);
    expect(r.code, tail).toBe(0);
    const { scenarios } = await loadAll(['scenarios']);
    const xml = await readFile(out, 'utf8');
    expect(xml).toContain(`tests="${scenarios.length}" failures="0"`);
    expect(xml.match(/<testcase /g)).toHaveLength(scenarios.length);
    expect(xml).not.toContain('<failure');
    expect(r.stdout).toContain(`${scenarios.length} passed, 0 failed, ${scenarios.length} total`);
    console.log(`[scenarios] ${scenarios.length} scenarios through the CLI in ${seconds.toFixed(1)} s (process included)`);
  }, 180_000);

  it('fails a deliberately broken scenario with exit 1, a JUnit failure and expected versus actual', async () => {
    const out = path.join(tmp, 'broken.xml');
    const r = await cli(['scenario', 'run', 'test/fixtures/scenarios-broken', '--start', '--reporter', 'junit', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ Broken on purpose');
    expect(r.stdout).toContain(
      'step 2 "the lookup is expected COMPLETED" failed: /body/data/status: expected "COMPLETED", got "WAITING_PAYMENT"',
    );
    expect(r.stdout).toMatch(/request: {2}GET http:\/\/127\.0\.0\.1:\d+\/v1\/banking\/transactions\/[0-9a-f-]{36}/);
    expect(r.stdout).toMatch(/expected: "COMPLETED"\n\s+actual: {3}"WAITING_PAYMENT"/);
    expect(r.stdout).toContain('authorization: Bearer ***');
    expect(r.stdout).toContain('0 passed, 1 failed, 1 total');
    const xml = await readFile(out, 'utf8');
    expect(xml).toContain('tests="1" failures="1"');
    expect(xml).toContain(
      '<failure message="step 2 &quot;the lookup is expected COMPLETED&quot;: /body/data/status: expected &quot;COMPLETED&quot;, got &quot;WAITING_PAYMENT&quot;"',
    );
    expect(xml).toMatch(/skipped 3\. never reached/);
  }, 60_000);

  it('writes a JSON report to stdout, progress to stderr', async () => {
    const r = await cli(['scenario', 'run', 'test/fixtures/scenarios-broken', '--start', '--reporter', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.summary).toEqual({ total: 1, passed: 0, failed: 1 });
    const [sc] = report.scenarios;
    expect(sc.accountId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sc.steps.map((s: { status: string }) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(sc.steps[1].failure.mismatches).toEqual([
      {
        path: '/body/data/status',
        expected: 'COMPLETED',
        actual: 'WAITING_PAYMENT',
        message: 'expected "COMPLETED", got "WAITING_PAYMENT"',
      },
    ]);
    expect(sc.steps[1].failure.exchange.request.headers.authorization).toBe('Bearer ***');
    expect(r.stderr).toContain('✗ Broken on purpose');
  }, 60_000);

  it('exits 2 on an invalid scenario file, naming the step and the field, and runs nothing', async () => {
    const r = await cli(['scenario', 'run', 'test/fixtures/scenarios-invalid', 'scenarios/charge-paid.yaml', '--start']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'test/fixtures/scenarios-invalid/bad-field.yaml: step 2 "look it up", field /steps/1/request/method: is required',
    );
    expect(r.stderr).toContain('field /steps/1/request/expcet: is not a known field');
    expect(r.stdout).not.toContain('running');
    expect((await cli(['scenario', 'run', 'no/such/folder'])).code).toBe(2);
    expect((await cli(['scenario', 'validate', 'scenarios'])).stdout).toMatch(/^\d+ scenario file\(s\) valid/);
  }, 60_000);

  it('`scenario validate` names all three mistakes of a file in one run (an unknown event type among them)', async () => {
    const r = await cli(['scenario', 'validate', 'test/fixtures/scenarios-three-mistakes']);
    expect(r.code).toBe(2);
    const file = 'test/fixtures/scenarios-three-mistakes/pay-and-hear.yaml';
    expect(r.stderr.trim().split('\n')).toEqual([
      `pix-sandbox: ${file}: step 1 "create a charge", field /steps/0/expcet: is not a known field`,
      `pix-sandbox: ${file}: step 2 "pay it", field /steps/1/pay: \${chrage...} refers to nothing saved by an earlier step (save: chrage)`,
      `pix-sandbox: ${file}: step 3 "hear about it", field /steps/2/expectWebhook/type: must be one of cashin.created, cashin.paid, cashin.expired, cashin.cancelled, cashout.created, cashout.completed, cashout.failed; did you mean cashin.paid?`,
    ]);
  });

  it('`scenario validate` shows a YAML error with its line and a caret; with neither paths nor --shipped it is bad usage', async () => {
    const file = path.join(tmp, 'bad.yaml');
    await writeFile(file, 'name: x\nsteps:\n  - pay: a\n   bad: indent\n');
    const r = await cli(['scenario', 'validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `pix-sandbox: ${file}:4:1: not valid YAML: Sequence item without - indicator\n  3 |   - pay: a\n  4 |    bad: indent\n    | ^\n`,
    );
    const none = await cli(['scenario', 'validate']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('name scenario files or folders, or use --shipped');
  });
});

describe('CLI control commands against a running sandbox', () => {
  let sb: TestSandbox;
  const ADMIN = 'cli-admin-token';
  const run = (...args: string[]) => cli([...args, '--base-url', sb.url, '--admin-token', ADMIN]);
  const json = async (...args: string[]) => {
    const r = await run(...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };

  beforeAll(async () => {
    sb = await startTestSandbox({ adminToken: ADMIN });
  });
  afterAll(() => sb.stop());

  async function newCharge(token: string) {
    const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount: 990, description: 'cli', customer: { name: 'Ana Lima', document: '52998224725' } },
    });
    expect(r.status).toBe(201);
    return r.body.transactionId as string;
  }

  it('creates a tenant, pays a charge, and answers 1 with the sandbox message on a 409', async () => {
    const account = await json('accounts', 'create', 'CLI tenant', '--split-enabled', '--settle-after-seconds', '5');
    expect(account).toMatchObject({
      name: 'CLI tenant',
      splitEnabled: true,
      settleAfterSeconds: 5,
      client_id: expect.any(String),
      client_secret: expect.any(String),
    });
    const token = await sb.token({ client_id: account.client_id, client_secret: account.client_secret });
    const id = await newCharge(token);
    const paid = await json('pay', id, '--payer-name', 'Bruno Costa', '--payer-document', '11144477735');
    expect(paid).toMatchObject({ status: 'PAID' });
    const lookup = await sb.request('GET', `/v1/banking/transactions/${id}`, { token });
    expect(lookup.body.data).toMatchObject({ status: 'COMPLETED', payer: { name: 'Bruno Costa', document: '11144477735' } });

    const again = await run('pay', id);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^pix-sandbox: .+ \(HTTP 409 INVALID_STATE\)\n$/);
    const expire = await run('expire', id);
    expect(expire.code).toBe(1);
    expect(expire.stderr).toContain('409 INVALID_STATE');
    const listed = await json('accounts', 'list');
    expect(listed.map((a: { id: string }) => a.id)).toContain(account.id);
  });

  it('cancels, fails and completes, advances the clock, and drives webhooks', async () => {
    const token = await sb.token();
    const id = await newCharge(token);
    expect(await json('cancel', id)).toMatchObject({ status: 'CANCELLED' });

    const t = await sb.request('POST', '/v1/banking/cash-out/pix', {
      token,
      headers: { 'x-idempotency-key': '0f2b1c9e-1111-4222-8333-444455556666' },
      body: {
        type: 'pix_key',
        description: 'cli',
        amount: '100',
        details: { name: 'Carla', key: '0f2b1c9e-9999-4222-8333-444455556666', keyType: 'RANDOM' },
      },
    });
    expect(t.status).toBe(201);
    expect(await json('fail', t.body.transactionId, '--code', 'ACCOUNT_BLOCKED', '--message', 'blocked')).toMatchObject({
      status: 'FAILED',
    });
    expect((await run('complete', t.body.transactionId)).code).toBe(1);

    const before = await json('clock');
    const after = await json('advance', '2m');
    expect(after.offsetSeconds - before.offsetSeconds).toBe(120);
    // one tenant's clock: moved alone, frozen, flowing again
    const acc = '00000000-0000-4000-8000-000000000001';
    const own = await json('advance', '90s', '--account', acc);
    expect(own).toMatchObject({ accountId: acc, frozen: false });
    expect(own.offsetSeconds - after.offsetSeconds).toBe(90);
    expect((await json('clock')).offsetSeconds).toBe(after.offsetSeconds);
    expect((await json('clock', '--account', acc)).offsetSeconds).toBe(own.offsetSeconds);
    expect(await json('freeze', '--account', acc)).toMatchObject({ accountId: acc, frozen: true });
    expect(await json('unfreeze', '--account', acc)).toMatchObject({ accountId: acc, frozen: false });

    const ep = await json('webhooks', 'add', 'http://127.0.0.1:9/hook', '--events', 'cashin.paid');
    expect(ep).toMatchObject({ url: 'http://127.0.0.1:9/hook', secret: expect.any(String) });
    expect((await json('webhooks', 'list')).map((e: { id: string }) => e.id)).toContain(ep.id);
    const paidId = await newCharge(token);
    await json('pay', paidId);
    const fired = await json('webhooks', 'fire', paidId, '--type', 'cashin.paid');
    expect(fired.event).toMatchObject({ type: 'cashin.paid', data: { transactionId: paidId } });
    const deliveries = await json('webhooks', 'deliveries', '--transaction-id', paidId);
    expect(deliveries.length).toBeGreaterThanOrEqual(1);
    const again = await json('webhooks', 'redeliver', deliveries[0].id);
    expect(again).toMatchObject({ transactionId: paidId });
    expect(await json('webhooks', 'remove', ep.id)).toMatchObject({ id: ep.id });
    expect(await json('webhooks', 'list')).toEqual([]);
  });

  it('arranges rules, faults and keys of one tenant with --account, reads its journal, and deletes it', async () => {
    const tenant = await json('accounts', 'create', 'CLI scoped');
    const A = ['--account', tenant.id];
    const rule = '{"id":"cli-rule","match":{"type":"CASH_OUT","amount":100},"outcome":{"action":"wait"}}';
    expect(await json('rules', 'add', rule, ...A)).toMatchObject({ id: 'cli-rule', accountId: tenant.id });
    expect(await json('rules', 'add', rule)).toMatchObject({ id: 'cli-rule', accountId: null });
    expect((await json('rules', 'list', ...A)).map((r: { accountId: string }) => r.accountId)).toEqual([tenant.id]);
    const key = await json(
      'keys',
      'add',
      'cli@tenant.test',
      '--type',
      'EMAIL',
      '--owner-name',
      'Cli',
      '--owner-document',
      '52998224725',
      ...A,
    );
    expect(key).toMatchObject({ key: 'cli@tenant.test', accountId: tenant.id });
    const fault = await json('faults', 'add', '/v1/banking/balance', '--status', '503', '--times', '1', ...A);
    expect(fault).toMatchObject({ path: '/v1/banking/balance', status: 503, accountId: tenant.id });
    const token = await sb.token({ client_id: tenant.client_id, client_secret: tenant.client_secret });
    expect((await sb.request('GET', '/v1/banking/balance', { token })).status).toBe(503);
    expect((await sb.request('GET', '/v1/banking/balance', { token: await sb.token() })).status).toBe(200);
    const journal = await json('requests', 'list', ...A, '--limit', '5');
    expect(journal[0]).toMatchObject({ path: '/v1/banking/balance', status: 503, accountId: tenant.id });
    expect(await json('requests', 'clear', ...A)).toEqual({ cleared: true });
    expect(await json('requests', 'list', ...A)).toEqual([]);
    expect(await json('rules', 'remove', 'cli-rule', ...A)).toEqual({ id: 'cli-rule', deleted: true });
    expect(await json('rules', 'remove', 'cli-rule')).toEqual({ id: 'cli-rule', deleted: true });
    expect(await json('keys', 'clear', ...A)).toEqual({ cleared: true });
    expect(await json('keys', 'list', ...A)).toEqual([]);
    expect(await json('accounts', 'delete', tenant.id)).toEqual({ id: tenant.id, deleted: true });
    const again = await run('accounts', 'delete', tenant.id);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('(HTTP 404 NOT_FOUND)')]);
    const def = await run('accounts', 'delete', '00000000-0000-4000-8000-000000000001');
    expect([def.code, def.stderr]).toEqual([1, expect.stringContaining('(HTTP 409 INVALID_STATE)')]);
  });

  it('reads PIX_SANDBOX_URL and PIX_SANDBOX_ADMIN_TOKEN, refuses a missing admin token, and exits 2 on bad usage', async () => {
    const viaEnv = await cli(['clock'], { PIX_SANDBOX_URL: sb.url, PIX_SANDBOX_ADMIN_TOKEN: ADMIN, PIX_SANDBOX_PORT: '9999' });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toHaveProperty('now');
    const noToken = await cli(['clock', '--base-url', sb.url]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('x-sandbox-admin-token header is missing');
    expect((await run('advance', 'soon')).code).toBe(2);
    expect((await run('fail', '0f2b1c9e-1111-4222-8333-444455556666')).code).toBe(2); // --code is required
    expect((await run('pay')).code).toBe(2);
    expect((await cli(['webhooks'])).code).toBe(2);
    const down = await cli(['clock', '--base-url', 'http://127.0.0.1:9']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach http://127.0.0.1:9');
  });

  it('runs a scenario against --base-url with the admin token (its own tenant and webhook receiver)', async () => {
    const r = await run('scenario', 'run', 'scenarios/charge-paid.yaml', '--concurrency', '1');
    expect(r.stdout).toContain('1 passed, 0 failed, 1 total');
    expect(r.code).toBe(0);
    // the receiver's endpoint was removed afterwards
    expect(await json('webhooks', 'list')).toEqual([]);
  }, 60_000);
});
