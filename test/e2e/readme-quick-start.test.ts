// The README's quick start, run as written: the built command on an ephemeral port stands in for
// `npm start`, the receiver block runs as given, the `run` blocks run in one bash in order, and what
// they print is compared with the README's `output` and `receiver-output` blocks. Ports are the only
// substitution; ids, end-to-end ids and the BR Code's lengths and CRC are compared by shape.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/domain/brcode.js';
import { packagePath } from '../../src/paths.js';

const run = promisify(execFile);
const BIN = packagePath('dist', 'bin', 'pix-sandbox.js');
const SANDBOX_PORT = 8080;
const RECEIVER_PORT = 3000;

type Kind = 'sandbox' | 'receiver' | 'run' | 'output' | 'receiver-output';
interface Block {
  kind: Kind;
  text: string;
}

function quickStart(): Block[] {
  const readme = readFileSync(packagePath('README.md'), 'utf8');
  const start = readme.indexOf('\n## Quick start');
  if (start < 0) throw new Error('README.md has no "## Quick start" section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks: Block[] = [];
  for (const m of section.matchAll(/(?:<!-- quick-start: ([a-z-]+) -->\n)?```\w*\n([\s\S]*?)```/g)) {
    const kind = m[1] as Kind | undefined;
    if (!kind || !['sandbox', 'receiver', 'run', 'output', 'receiver-output'].includes(kind))
      throw new Error(`a code block of the quick start has no (known) quick-start marker:\n${m[2]}`);
    blocks.push({ kind, text: m[2]! });
  }
  return blocks;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Values that differ from run to run, replaced by their shape; UUIDs numbered by first appearance. */
function normalizer() {
  const ids = new Map<string, string>();
  return (line: string) =>
    line
      .replace(UUID, (id) => {
        if (!ids.has(id)) ids.set(id, `<id${ids.size}>`);
        return ids.get(id)!;
      })
      .replace(/\bE(\d{8})\d{12}[A-Za-z0-9]{11}\b/g, 'E$1<e2e>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>')
      // the port's digits change the location's length, hence items 26 and 25, and the CRC
      .replace(/26\d\d0014br\.gov\.bcb\.pix25\d\d/g, '26<len>0014br.gov.bcb.pix25<len>')
      .replace(/(000201[^"]*6304)[0-9A-F]{4}/g, '$1<crc>');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:port (bounded). */
async function listening(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with the first output of `child` matching `re` (bounded). */
function waitForOutput(child: ChildProcess, re: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no output matching ${re} within ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = re.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
  });
}

const env = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_'))),
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
});

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }
});

describe('the README quick start', () => {
  const blocks = quickStart();

  it('has the sandbox, the receiver, and calls with the output they print', () => {
    expect(blocks.filter((b) => b.kind === 'sandbox').map((b) => b.text.trim())).toEqual(['npm start']);
    expect(blocks.filter((b) => b.kind === 'receiver')).toHaveLength(1);
    expect(blocks.filter((b) => b.kind === 'run').length).toBeGreaterThanOrEqual(5);
    // the BR Code the README shows is one a payer's app would accept (its CRC included)
    const shown = /"pixCode":"([^"]+)"/.exec(blocks.map((b) => b.text).join('\n'));
    expect(shown, 'the quick start shows a pixCode').not.toBeNull();
    expect(parseBrCode(shown![1]!)).toMatchObject({ ok: true });
  });

  it('runs as written against a fresh sandbox and prints what the README shows', { timeout: 90_000 }, async () => {
    const sandbox = spawn(BIN, ['serve', '--port', '0', '--https-port', 'off', '--memory'], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(sandbox);
    const port = Number((await waitForOutput(sandbox, /listening on http:\/\/127\.0\.0\.1:(\d+)/))[1]);
    const receiverPort = await freePort();

    const substitute = (text: string) => {
      const out = text
        .replaceAll(`127.0.0.1:${SANDBOX_PORT}`, `127.0.0.1:${port}`)
        .replaceAll(`127.0.0.1:${RECEIVER_PORT}`, `127.0.0.1:${receiverPort}`)
        .replaceAll(`.listen(${RECEIVER_PORT},`, `.listen(${receiverPort},`);
      return out;
    };
    const back = (text: string) =>
      text
        .replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${SANDBOX_PORT}`)
        .replaceAll(`127.0.0.1:${receiverPort}`, `127.0.0.1:${RECEIVER_PORT}`);

    const receiverBlock = blocks.find((b) => b.kind === 'receiver')!.text.trim();
    expect(substitute(receiverBlock), 'the receiver listens on the port the README names').not.toBe(receiverBlock);
    const receiver = spawn('bash', ['-c', `exec ${substitute(receiverBlock)}`], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(receiver);
    let printed = '';
    receiver.stdout.on('data', (c: Buffer) => (printed += c.toString()));
    await listening(receiverPort);

    // the calls, in one shell; a marker after each block splits what each printed
    const runs = blocks.map((b, i) => ({ ...b, i })).filter((b) => b.kind === 'run');
    const script = ['set -euo pipefail', ...runs.map((b) => `${substitute(b.text)}\nprintf '\\n@@quick-start-block-${b.i}@@\\n'`)].join(
      '\n',
    );
    expect(script).toContain(`127.0.0.1:${port}`);
    const { stdout } = await run('bash', ['-c', script], { env: env(), timeout: 60_000 }).catch(
      (e: { stdout?: string; stderr?: string }) => {
        throw new Error(`the quick start failed:\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
      },
    );

    const expected = normalizer();
    const actual = normalizer();
    let rest = back(stdout);
    for (const r of runs) {
      const marker = `@@quick-start-block-${r.i}@@`;
      const at = rest.indexOf(marker);
      expect(at, `block ${r.i} ran to its end`).toBeGreaterThanOrEqual(0);
      const got = lines(rest.slice(0, at));
      rest = rest.slice(at + marker.length);
      const next = blocks[r.i + 1];
      const shown = next?.kind === 'output' ? lines(next.text) : [];
      expect(got.map(actual), `the output of quick-start block ${r.i}:\n${r.text}`).toEqual(shown.map(expected));
    }

    // the receiver: every event the README shows, each transaction's events in the README's order
    const shownEvents = blocks.filter((b) => b.kind === 'receiver-output').flatMap((b) => lines(b.text));
    const deadline = Date.now() + 15_000;
    while (lines(printed).length < shownEvents.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const want = shownEvents.map(expected);
    const got = lines(back(printed)).map(actual);
    expect([...got].sort()).toEqual([...want].sort());
    const byTransaction = (ls: string[]) => {
      const m = new Map<string, string[]>();
      for (const l of ls) {
        const id = l.split(' ')[2]!;
        m.set(id, [...(m.get(id) ?? []), l]);
      }
      return Object.fromEntries(m);
    };
    expect(byTransaction(got)).toEqual(byTransaction(want));
  });
});
