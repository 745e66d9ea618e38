// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (raw body and
// headers) and answers as the test says (status, delay). It can go down and come back on the
// same port, as a receiver restarting would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
  /** when the receiver answered (null while it has not) */
  answeredAt: number | null;
}

type Behaviour = (n: number, r: Received) => { status?: number; delayMs?: number } | void;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** answers of later requests; `n` counts requests from 1 */
  behave(b: Behaviour): void;
  /** resolves when at least `count` requests matching `filter` have arrived */
  waitFor(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  let behaviour: Behaviour = () => undefined;
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let waiters: (() => void)[] = [];
  const server = () =>
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const r: Received = { path: req.url ?? '', headers: req.headers, raw, body, at: Date.now(), answeredAt: null };
        received.push(r);
        const answer = behaviour(received.length, r) ?? {};
        const reply = () => {
          r.answeredAt = Date.now();
          res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' }).end('ok');
        };
        if (answer.delayMs) {
          const t = setTimeout(() => {
            timers.delete(t);
            reply();
          }, answer.delayMs);
          timers.add(t);
        } else reply();
        const w = waiters;
        waiters = [];
        w.forEach((f) => f());
      });
    });
  let srv = server();
  const listen = (port: number) =>
    new Promise<number>((resolve) => srv.listen(port, '127.0.0.1', () => resolve((srv.address() as AddressInfo).port)));
  const port = await listen(0);
  const closeServer = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      srv.close(() => resolve());
      srv.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    received,
    behave: (b) => {
      behaviour = b;
    },
    async waitFor(count, filter = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hits = received.filter(filter);
        if (hits.length >= count) return hits;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`expected ${count} webhook requests, got ${hits.length}: ${hits.map((h) => h.body?.type).join(', ')}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    down: closeServer,
    async up() {
      srv = server();
      await listen(port);
    },
    close: closeServer,
  };
}
