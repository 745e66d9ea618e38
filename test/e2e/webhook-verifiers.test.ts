// The five webhook verifiers of docs/webhooks.md#verifying-the-signature (Node.js, Python, PHP, Go,
// Java), each taken from the page and run by its own toolchain against deliveries a real sandbox
// made: a good one, the first attempt of a `bad-signature` fault and of a `stale-signature` fault
// (signed 10 minutes in the past), and variations of the good one. The harness of each language
// (test/e2e/verifiers/) feeds it cases on stdin and prints its answers. A missing toolchain
// fails its test: scripts/install-test-tools.sh installs them (CI runs it), none is ever skipped.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Received, type Receiver } from '../helpers/webhook-receiver.js';

const exec = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECRET = 'whsec_five-languages-test-secret';
/** a bound for each child process: a cold Go or javac build on a busy 2-core machine included */
const CHILD_TIMEOUT_MS = 150_000;

interface Language {
  name: string;
  /** the fence's info string on the page, and a text only the verifier's block holds */
  fence: string;
  marks: string;
  /** file name of the verifier beside the harness, and how the page's text becomes that file */
  file: string;
  adapt?: (source: string) => string;
  harness: string;
  /** imports the block may make: the language's standard library only */
  imports: (source: string) => string[];
  stdlib: (name: string) => boolean;
  /** the commands that run the harness in its folder (the last one reads the cases) */
  commands: [string, ...string[]][];
}

const LANGUAGES: Language[] = [
  {
    name: 'Node.js',
    fence: 'js',
    marks: 'export function verifyWebhookSignature',
    file: 'webhook-signature.mjs',
    harness: 'harness.mjs',
    imports: (s) => [...s.matchAll(/from '([^']+)'/g)].map((m) => m[1]!),
    stdlib: (n) => n.startsWith('node:'),
    commands: [['node', 'harness.mjs']],
  },
  {
    name: 'Python',
    fence: 'python',
    marks: 'def verify_webhook_signature',
    file: 'webhook_signature.py',
    harness: 'harness.py',
    imports: (s) => [...s.matchAll(/^(?:import|from) ([\w.]+)/gm)].map((m) => m[1]!),
    stdlib: (n) => ['hashlib', 'hmac', 're', 'time'].includes(n),
    commands: [['python3', 'harness.py']],
  },
  {
    name: 'PHP',
    fence: 'php',
    marks: 'function verifyWebhookSignature',
    file: 'webhook_signature.php',
    harness: 'harness.php',
    imports: (s) => [...s.matchAll(/^\s*(?:use|require|include)\w*\s+([^;]+);/gm)].map((m) => m[1]!),
    stdlib: () => false,
    commands: [['php', 'harness.php']],
  },
  {
    name: 'Go',
    fence: 'go',
    marks: 'func VerifySignature',
    file: 'webhook_signature.go',
    // the page's function lives in a package of the app; the harness is a main package beside it
    adapt: (s) => s.replace(/^package \w+$/m, 'package main'),
    harness: 'harness.go',
    imports: (s) => [...(/^import \(([\s\S]*?)\)/m.exec(s)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]!),
    stdlib: (n) => !n.split('/')[0]!.includes('.'),
    commands: [['go', 'run', 'harness.go', 'webhook_signature.go']],
  },
  {
    name: 'Java',
    fence: 'java',
    marks: 'public final class WebhookSignature',
    file: 'WebhookSignature.java',
    harness: 'Harness.java',
    imports: (s) => [...s.matchAll(/^import ([\w.]+);/gm)].map((m) => m[1]!),
    stdlib: (n) => n.startsWith('java.') || n.startsWith('javax.'),
    commands: [
      ['javac', '-d', 'classes', 'WebhookSignature.java', 'Harness.java'],
      ['java', '-cp', 'classes', 'Harness'],
    ],
  },
];

/** The fenced blocks of the page's "Verifying the signature" section, with their info strings. */
async function verifierSection(): Promise<{ fence: string; code: string }[]> {
  const page = await readFile(path.join(HERE, '../../docs/webhooks.md'), 'utf8');
  const start = page.indexOf('\n## Verifying the signature');
  expect(start, 'docs/webhooks.md has a "Verifying the signature" section').toBeGreaterThan(0);
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ fence: m[1]!, code: m[2]! }));
}

interface Case {
  what: string;
  body: string;
  header: string | undefined;
  secret: string;
  tolerance: number;
  expected: boolean;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const line = (c: Case) => [b64(c.body), c.header === undefined ? '-' : b64(c.header), b64(c.secret), String(c.tolerance)].join(' ');
const header = (r: Received) => r.headers['x-sandbox-signature'] as string;

let sandbox: TestSandbox;
let receiver: Receiver;
let blocks: { fence: string; code: string }[];
let cases: Case[];
let work: string;

beforeAll(async () => {
  blocks = await verifierSection();
  work = await mkdtemp(path.join(os.tmpdir(), 'pix-verifiers-'));
  sandbox = await startTestSandbox();
  receiver = await startReceiver('/pix/webhook');
  const endpoint = await sandbox.request('POST', '/_sandbox/webhooks', { body: { url: receiver.url, secret: SECRET } });
  expect(endpoint.status).toBe(201);
  const token = await sandbox.token();

  /** the first attempt of the cash-in's first event, signed as the fault (if any) shapes it */
  const delivered = async (amount: number, fault?: 'bad-signature' | 'stale-signature') => {
    if (fault) {
      const f = await sandbox.request('POST', '/_sandbox/webhooks/faults', { body: { endpointId: endpoint.body.id, action: fault } });
      expect(f.status).toBe(201);
    }
    const charge = await sandbox.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount, description: `verifiers ${fault ?? 'good'}`, customer: { name: 'Maria Silva', document: '52998224725' } },
    });
    expect(charge.status).toBe(201);
    const [first] = await receiver.waitFor(1, (r) => r.body?.data?.transactionId === charge.body.transactionId, 10_000);
    return first!;
  };
  const good = await delivered(1050);
  const bad = await delivered(1051, 'bad-signature');
  const stale = await delivered(1052, 'stale-signature');
  const staleAge = Date.now() / 1000 - Number(/t=(\d+)/.exec(header(stale))![1]);
  expect(staleAge, 'the stale-signature fault signs 10 minutes in the past').toBeGreaterThan(590);

  const tampered = good.raw.replace('"amount":1050', '"amount":1059');
  expect(tampered).not.toBe(good.raw);
  cases = [
    { what: 'a good delivery', body: good.raw, header: header(good), secret: SECRET, tolerance: 300, expected: true },
    { what: 'the bad-signature fault', body: bad.raw, header: header(bad), secret: SECRET, tolerance: 300, expected: false },
    {
      what: 'the bad-signature fault, however tolerant',
      body: bad.raw,
      header: header(bad),
      secret: SECRET,
      tolerance: 900,
      expected: false,
    },
    { what: 'the stale-signature fault', body: stale.raw, header: header(stale), secret: SECRET, tolerance: 300, expected: false },
    // its HMAC is right: only the age check refuses it
    {
      what: 'the stale delivery with a 15-minute tolerance',
      body: stale.raw,
      header: header(stale),
      secret: SECRET,
      tolerance: 900,
      expected: true,
    },
    { what: 'a tampered body', body: tampered, header: header(good), secret: SECRET, tolerance: 300, expected: false },
    { what: 'another secret', body: good.raw, header: header(good), secret: 'whsec_another-secret', tolerance: 300, expected: false },
    { what: 'no header', body: good.raw, header: undefined, secret: SECRET, tolerance: 300, expected: false },
    { what: 'a garbled header', body: good.raw, header: 't=abc,v1=zz', secret: SECRET, tolerance: 300, expected: false },
    {
      what: 'a v1 of another length',
      body: good.raw,
      header: header(good).replace(/v1=[0-9a-f]{4}/, 'v1='),
      secret: SECRET,
      tolerance: 300,
      expected: false,
    },
    {
      what: 'a v1 one digit off',
      body: good.raw,
      header: header(good).replace(/v1=[0-9a-f]{4}/, 'v1=0000'),
      secret: SECRET,
      tolerance: 300,
      expected: false,
    },
  ];
});

afterAll(async () => {
  await receiver?.close();
  await sandbox?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function run(command: string, args: string[], cwd: string, input?: string): Promise<string> {
  const child = exec(command, args, { cwd, timeout: CHILD_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 });
  if (input !== undefined) child.child.stdin!.end(input);
  try {
    return (await child).stdout;
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string; killed?: boolean };
    if (err.code === 'ENOENT')
      throw new Error(`${command} is not installed: scripts/install-test-tools.sh installs it (apt-get, as CI does)`, { cause: e });
    throw new Error(
      `${command} ${args.join(' ')} failed${err.killed ? ` (killed after ${CHILD_TIMEOUT_MS} ms)` : ''}: ${err.message}\n${err.stderr ?? ''}`,
      { cause: e },
    );
  }
}

describe('the webhook verifiers of docs/webhooks.md, against real deliveries', () => {
  for (const lang of LANGUAGES) {
    describe(lang.name, () => {
      const source = () => {
        const found = blocks.filter((b) => b.fence === lang.fence && b.code.includes(lang.marks));
        expect(found, `one \`\`\`${lang.fence} block with "${lang.marks}" in the section`).toHaveLength(1);
        return found[0]!.code;
      };

      it('uses the standard library only', () => {
        const imports = lang.imports(source());
        expect(imports.filter((n) => !lang.stdlib(n))).toEqual([]);
      });

      it(
        'accepts the good delivery and refuses the bad, the stale and every altered one',
        { timeout: 2 * CHILD_TIMEOUT_MS + 10_000 },
        async () => {
          const dir = path.join(work, lang.fence);
          await rm(dir, { recursive: true, force: true });
          await mkdir(dir, { recursive: true });
          await writeFile(path.join(dir, lang.file), (lang.adapt ?? ((s: string) => s))(source()));
          await copyFile(path.join(HERE, 'verifiers', lang.harness), path.join(dir, lang.harness));
          const steps = lang.commands;
          for (const [cmd, ...args] of steps.slice(0, -1)) await run(cmd, args, dir);
          const [cmd, ...args] = steps.at(-1)!;
          const out = await run(cmd, args, dir, cases.map(line).join('\n') + '\n');
          const answers = out.trim().split('\n');
          expect(Object.fromEntries(cases.map((c, i) => [c.what, answers[i]]))).toEqual(
            Object.fromEntries(cases.map((c) => [c.what, String(c.expected)])),
          );
          expect(answers).toHaveLength(cases.length);
        },
      );
    });
  }
});
