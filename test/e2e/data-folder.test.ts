// The data folder through the built command (docs/store.md#the-data-folder): it belongs to one
// sandbox at a time (a second `serve` on it exits 2 naming the folder and the holder's pid; a
// SIGKILLed holder never blocks the next start; nothing acknowledged is lost either way), --memory
// takes no lock, the folder and its files are private from their creation and tightened on a folder
// an earlier version left open, and a data file of a newer format version is refused untouched.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { SCHEMA_VERSION } from '../../src/store/model.js';
import { launch, type Launched } from '../helpers/process.js';
import { ensureBuilt } from '../helpers/torture.js';

const BIN = packagePath('dist', 'bin', 'pix-sandbox.js');
let root: string;
const launched: Launched[] = [];

beforeAll(async () => {
  ensureBuilt();
  root = await mkdtemp(path.join(os.tmpdir(), 'pix-data-folder-'));
});
afterEach(() => launched.splice(0).forEach((l) => l.killGroup()));
afterAll(() => rm(root, { recursive: true, force: true }));

function serve(dataDir: string | null, extra: string[] = []): Launched {
  const where = dataDir === null ? ['--memory'] : ['--data-dir', dataDir];
  const l = launch(BIN, ['serve', '--port', '0', ...where, ...extra], { cwd: root });
  launched.push(l);
  return l;
}

/** A sandbox that started and listens: its process and URL. */
async function started(dataDir: string | null, extra: string[] = ['--https-port', 'off']): Promise<{ l: Launched; url: string }> {
  const l = serve(dataDir, extra);
  await l.waitFor(/^data file: /m); // the banner's last line before the certificate's: everything listens
  return { l, url: /listening on (http:\/\/\S+)/.exec(l.out())![1]! };
}

/** A start that is refused: its exit code and what it printed. */
async function refused(dataDir: string): Promise<{ code: number | null; out: string }> {
  const l = serve(dataDir, ['--https-port', 'off']);
  const { code } = await l.exited;
  return { code, out: l.out() };
}

/** An acknowledged write: a tenant created through the control API (answered once it is on disk). */
async function write(url: string, name: string): Promise<string> {
  const r = await fetch(`${url}/_sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

async function expectAll(url: string, ids: string[]): Promise<void> {
  const have = new Set(((await (await fetch(`${url}/_sandbox/accounts`)).json()) as { id: string }[]).map((a) => a.id));
  for (const id of ids) expect(have.has(id), `acknowledged account ${id}`).toBe(true);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const modeOf = async (file: string) => ((await stat(file)).mode & 0o777).toString(8);

describe('a data folder belongs to one sandbox at a time', () => {
  it('a second sandbox exits 2 naming the folder and the holder; after a SIGKILL of the holder the next start succeeds; nothing acknowledged is lost', async () => {
    const dir = path.join(root, 'shared');
    const acked: string[] = [];
    const first = await started(dir);
    acked.push(await write(first.url, 'before the second start'));
    const second = await refused(dir);
    expect(second.code).toBe(2);
    expect(second.out).toContain(`data folder ${dir} is in use by another sandbox (pid ${first.l.proc.pid}`);
    expect(second.out).not.toContain('listening on');
    // the holder goes on as if nothing happened
    acked.push(await write(first.url, 'after the refused start'));
    first.l.proc.kill('SIGKILL');
    await first.l.exited;

    const next = await started(dir);
    await expectAll(next.url, acked);
    acked.push(await write(next.url, 'after the restart'));
    const third = await refused(dir);
    expect(third.code).toBe(2);
    expect(third.out).toContain(`(pid ${next.l.proc.pid}`);
    next.l.proc.kill('SIGTERM');
    expect((await next.l.exited).code).toBe(0);

    const last = await started(dir);
    await expectAll(last.url, acked);
    last.l.proc.kill('SIGTERM');
    await last.l.exited;
    expect(await readdir(path.join(dir, 'lock'))).toEqual([]); // each stop took its entry away
  }, 60_000);

  it('of three sandboxes started at once on one folder, exactly one serves', async () => {
    const dir = path.join(root, 'race');
    const all = [0, 1, 2].map(() => serve(dir, ['--https-port', 'off']));
    const outcome = await Promise.all(
      all.map((l) => Promise.race([l.waitFor(/^data file: /m).then(() => 'serves'), l.exited.then(({ code }) => `exit ${code}`)])),
    );
    expect(outcome.sort()).toEqual(['exit 2', 'exit 2', 'serves']);
  }, 60_000);

  it('--memory sandboxes take no lock and leave no folder', async () => {
    const a = await started(null);
    const b = await started(null);
    expect(a.url).not.toBe(b.url);
    expect(await readdir(root)).not.toContain('.pix-sandbox');
  }, 30_000);
});

describe('the data folder and its files are private', () => {
  it('0700 and 0600 from a fresh start (store, log, certificate, lock, backups of a reset)', async () => {
    const dir = path.join(root, 'modes');
    const { l, url } = await started(dir, []); // HTTPS on: the certificate is generated into the folder
    expect(await modeOf(dir)).toBe('700');
    expect(await modeOf(path.join(dir, 'lock'))).toBe('700');
    const [entry] = await readdir(path.join(dir, 'lock'));
    await write(url, 'something in the log');
    expect((await fetch(`${url}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    for (const f of ['db.json', 'db.json.wal', 'cert.pem', 'key.pem', `lock/${entry}`])
      expect(await modeOf(path.join(dir, f)), f).toBe('600');
    const backups = (await readdir(dir)).filter((f) => f.includes('.bak'));
    expect(backups.length).toBeGreaterThanOrEqual(1);
    for (const f of backups) expect(await modeOf(path.join(dir, f)), f).toBe('600');
    l.proc.kill('SIGTERM');
    await l.exited;
  }, 30_000);

  it('an open folder an earlier version left is tightened at start; one that holds other files keeps its mode, said at start', async () => {
    const dir = path.join(root, 'loose');
    const first = await started(dir, []);
    first.l.proc.kill('SIGTERM');
    await first.l.exited;
    const files = (await readdir(dir)).filter((f) => f !== 'lock');
    await chmod(dir, 0o755);
    for (const f of files) await chmod(path.join(dir, f), 0o644);
    const again = await started(dir, []);
    expect(await modeOf(dir)).toBe('700');
    for (const f of files) expect(await modeOf(path.join(dir, f)), f).toBe('600');
    again.l.proc.kill('SIGTERM');
    await again.l.exited;

    // --data-dir pointed at a folder of other things: the folder is not the sandbox's to close
    const project = path.join(root, 'project');
    await mkdir(project, { mode: 0o755 });
    await chmod(project, 0o755);
    await writeFile(path.join(project, 'README.md'), 'a project');
    const inProject = await started(project);
    expect(await modeOf(project)).toBe('755');
    expect(await modeOf(path.join(project, 'db.json'))).toBe('600');
    await inProject.l.waitFor(new RegExp(escape(`data folder ${project} holds other files: its mode 0755 is left as it is`)));
  }, 60_000);
});

describe('a data file of a newer format version', () => {
  it('refuses the start (exit 2), naming both versions, and never writes the file', async () => {
    const dir = path.join(root, 'newer');
    const first = await started(dir);
    first.l.proc.kill('SIGTERM');
    await first.l.exited;
    const file = path.join(dir, 'db.json');
    const newer = (await readFile(file, 'utf8')).replace(/"version":\d+/, `"version":${SCHEMA_VERSION + 1}`);
    await writeFile(file, newer);
    const listing = (await readdir(dir)).sort();
    const { code, out } = await refused(dir);
    expect(code).toBe(2);
    expect(out).toContain(
      `cannot use the data file ${file}: it is in data file format version ${SCHEMA_VERSION + 1}, newer than this build's version ${SCHEMA_VERSION}`,
    );
    expect(await readFile(file, 'utf8')).toBe(newer);
    expect((await readdir(dir)).sort()).toEqual(listing);
  }, 30_000);
});
