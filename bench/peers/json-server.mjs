// The json-server 0.17 peer: its CLI in a child process on a db.json pre-filled with the same
// records the sandbox holds. json-server keeps the data in memory and rewrites the whole file
// (lowdb 1's FileSync) on every write.
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/harness.mjs';
import { freePort, startNode } from '../lib/procs.mjs';

export const JSON_SERVER_BIN = path.join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');

/** Writes {transactions: records} as db.json in `dir` (streamed, so that 100k records cost the bench little memory). */
export async function writeJsonServerDb(dir, records) {
  const file = path.join(dir, 'db.json');
  const out = createWriteStream(file);
  const write = (s) => new Promise((resolve) => (out.write(s) ? resolve() : out.once('drain', resolve)));
  await write('{"transactions":[');
  let buf = '';
  for (let i = 0; i < records.length; i++) {
    buf += `${i ? ',' : ''}${JSON.stringify(records[i])}`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(`${buf}]}`);
  await new Promise((resolve, reject) => out.end((e) => (e ? reject(e) : resolve())));
  return file;
}

/** json-server with its defaults (gzip, CORS), quiet, on a free port; resolves once it serves a record. */
export async function startJsonServer(file, firstId, extraArgs = [], nodeArgs = []) {
  const port = await freePort();
  return startNode([...nodeArgs, JSON_SERVER_BIN, '--port', String(port), '--host', '127.0.0.1', '--quiet', ...extraArgs, file], {
    url: `http://127.0.0.1:${port}/transactions/${firstId}`,
  });
}
