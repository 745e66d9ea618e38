import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProblem, loadAll, loadScenario } from '../../src/scenarios/load.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-scenarios-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function problemsOf(name: string, text: string): Promise<string[]> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return (await loadScenario(file)).problems.map((p) => describeProblem(p).replace(file, 'F'));
}

const charge = `
  - name: create
    request: { method: POST, path: /v1/banking/cash-in/pix, body: { amount: 1 } }
    save: charge
`;

describe('scenario files are validated before anything runs', () => {
  it('names the file, the step (number and name) and the field', async () => {
    const p = await problemsOf('a.yaml', `name: x\nsteps:${charge}  - name: look up\n    request:\n      path: /v1/x\n      expcet: 200\n`);
    expect(p).toEqual([
      'F: step 2 "look up", field /steps/1/request/method: is required',
      'F: step 2 "look up", field /steps/1/request/expcet: is not a known field',
    ]);
  });

  it('requires exactly one action per step', async () => {
    expect(await problemsOf('b.yaml', 'name: x\nsteps:\n  - { name: both, pay: a, expire: b }\n')).toEqual([
      'F: step 1 "both", field /steps/0: a step takes exactly one action, found pay and expire',
    ]);
    const none = await problemsOf('c.yaml', 'name: x\nsteps:\n  - { name: nothing }\n');
    expect(none[0]).toMatch(/^F: step 1 "nothing", field \/steps\/0: a step needs one action: request, pay/);
  });

  it('explains enums, patterns and numbers', async () => {
    const p = await problemsOf(
      'd.yaml',
      `name: x\nfixtures:\n  pixKeys: [{ key: k, keyType: MAIL, owner: { name: n, document: "1" } }]\nsteps:\n  - advance: soon\n  - request: { method: FETCH, path: v1 }\n`,
    );
    expect(p).toContain('F: field /fixtures/pixKeys/0/keyType: must be one of CPF, CNPJ, EMAIL, PHONE, RANDOM; did you mean EMAIL?');
    expect(p).toContain('F: step 1, field /steps/0/advance: must be a number of seconds or {seconds}');
    expect(p).toContain('F: step 2, field /steps/1/request/method: must be an HTTP method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)');
    expect(p).toContain('F: step 2, field /steps/1/request/path: must start with / (it is joined to the base URL)');
  });

  it('refuses references to values no earlier step saved', async () => {
    const p = await problemsOf(
      'e.yaml',
      `name: x\nsteps:\n  - pay: "\${charge.body.transactionId}"\n${charge}  - request: { method: GET, path: /v1/merchants/balance, as: "merchant:shop" }\n`,
    );
    expect(p).toEqual([
      'F: step 1, field /steps/0/pay: ${charge...} refers to nothing saved by an earlier step (save: charge)',
      'F: step 3, field /steps/2/request/as: merchant:shop needs an earlier step with save: shop (createMerchant or POST /v1/merchants)',
    ]);
    // built-in scopes, generators and escapes are always fine
    expect(
      await problemsOf(
        'f.yaml',
        `name: x\nsteps:\n  - request: { method: GET, path: "/x/\${account.id}/\${vars.a}/\${scenario.id}/\${$uuid}/$\${literal}" }\n`,
      ),
    ).toEqual([]);
  });

  it('reports unreadable files and bad syntax', async () => {
    // the line and the one before it, numbered, with a caret under the column: no dangling colon
    expect(await problemsOf('g.yaml', 'name: x\nsteps:\n  - pay: a\n   bad: indent\n')).toEqual([
      ['F:4:1: not valid YAML: Sequence item without - indicator', '  3 |   - pay: a', '  4 |    bad: indent', '    | ^'].join('\n'),
    ]);
    expect((await problemsOf('g2.yaml', 'name: [unclosed\n'))[0]).toMatch(
      /^F:2:1: not valid YAML: Flow sequence .*\n {2}1 \| name: \[unclosed\n {2}2 \| \n {4}\| \^$/,
    );
    expect((await problemsOf('h.json', '{"name": '))[0]).toMatch(/^F:  ?field \/: not valid JSON/);
    const { problems } = await loadAll([path.join(dir, 'missing.yaml')]);
    expect(problems[0]!.message).toBe('no such file or folder');
  });

  it('names every mistake of a file in one run: schema, enums and references together, in the order of the file', async () => {
    const p = await problemsOf(
      'three.yaml',
      `name: x\nsteps:${charge}    expcet: { status: 201 }\n  - pay: "\${chrage.body.transactionId}"\n  - expectWebhook: { type: cashin.payed }\n  - fire: { transactionId: a, type: cashout.done }\n`,
    );
    expect(p).toEqual([
      'F: step 1 "create", field /steps/0/expcet: is not a known field',
      'F: step 2, field /steps/1/pay: ${chrage...} refers to nothing saved by an earlier step (save: chrage)',
      'F: step 3, field /steps/2/expectWebhook/type: must be one of cashin.created, cashin.paid, cashin.expired, cashin.cancelled, cashout.created, cashout.completed, cashout.failed; did you mean cashin.paid?',
      'F: step 4, field /steps/3/fire/type: must be one of cashin.created, cashin.paid, cashin.expired, cashin.cancelled, cashout.created, cashout.completed, cashout.failed',
    ]);
  });

  it('checks references even where the file has the wrong shape, without tripping over it', async () => {
    expect(await problemsOf('shape.yaml', 'name: x\nsteps: { a: 1 }\nvars: { v: "${nothing}" }\n')).toEqual([
      'F: field /steps: must be an array',
      'F: field /vars/v: ${nothing...} refers to nothing saved by an earlier step (save: nothing)',
    ]);
    expect(await problemsOf('null.yaml', 'name: x\nsteps: [null, 3]\n')).toEqual([
      'F: step 1, field /steps/0: must be an object',
      'F: step 2, field /steps/1: must be an object',
    ]);
  });

  it('accepts JSON as well as YAML', async () => {
    const file = path.join(dir, 'ok.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'json',
        steps: [{ advance: 1 }, { receiver: { failNext: 1 } }, { expectWebhook: { type: 'cashin.paid', within: 1 } }],
      }),
    );
    const r = await loadScenario(file);
    expect(r.problems).toEqual([]);
    expect(r.loaded?.scenario.name).toBe('json');
  });

  it('every shipped scenario is valid', async () => {
    const { scenarios, problems } = await loadAll(['scenarios']);
    expect(problems.map(describeProblem)).toEqual([]);
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
  });
});
