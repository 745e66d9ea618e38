// The webhook receiver the scenario runner starts on 127.0.0.1: one HTTP server for the whole
// run, one inbox (path /hooks/<id>) per scenario, registered for that scenario's tenant. It
// verifies every signature (docs/webhooks.md) with the endpoint's secret and can simulate an outage
// by failing the next N deliveries.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TOLERANCE_SECONDS, verifySignature as verify } from '../webhooks/verify.js';

interface WebhookEventBody {
  id?: string;
  type?: string;
  createdAt?: string;
  data?: unknown;
}

export interface ReceivedWebhook {
  receivedAt: string;
  headers: Record<string, string>;
  raw: string;
  event: WebhookEventBody | null;
  /** null while the endpoint's secret is not known yet */
  signatureValid: boolean | null;
  signatureProblem?: string;
  /** the status the receiver answered */
  answered: number;
  /** taken by an expectWebhook step (or ignored as a duplicate) */
  consumed: boolean;
  /** a de-duplicating inbox had already taken this event id: acknowledged, and ignored */
  duplicate?: boolean;
}

const MAX_BODY = 1024 * 1024;

/**
 * Checks `x-sandbox-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, and that `t` is
 * within the package verifier's window (webhooks/verify.ts, docs/webhooks.md#verifying-the-signature);
 * the verifier decides, this only names the problem for the scenario report.
 */
export function verifySignature(header: string | undefined, raw: string, secret: string, nowSeconds = Date.now() / 1000): string | null {
  if (!header) return 'no x-sandbox-signature header';
  const t = /(?:^|,)\s*t=(\d+)\s*(?:,|$)/.exec(header)?.[1];
  if (!t || !/(?:^|,)\s*v1=/.test(header)) return `malformed x-sandbox-signature "${header}"`;
  if (verify({ payload: raw, header, secret, now: nowSeconds })) return null;
  // refused: by the window (the HMAC itself is right) or by the HMAC
  if (verify({ payload: raw, header, secret, toleranceSeconds: Infinity }))
    return `x-sandbox-signature is correct but its t=${t} is more than ${DEFAULT_TOLERANCE_SECONDS} s from now (a replay?)`;
  return 'x-sandbox-signature does not match the endpoint secret';
}

export class Inbox {
  secret: string | null = null;
  failNext = 0;
  failStatus = 500;
  /** acknowledge a correctly signed event whose id was already taken, and ignore it (docs/webhooks.md#a-receiver-that-survives-faults) */
  dedupe = false;
  readonly hits: ReceivedWebhook[] = [];
  private readonly taken = new Set<string>();
  private waiters = new Set<() => void>();

  constructor(readonly id: string) {}

  /** Called for each delivery: decides the answer and records it. */
  receive(headers: Record<string, string>, raw: string): number {
    let event: WebhookEventBody | null = null;
    try {
      event = JSON.parse(raw) as WebhookEventBody;
    } catch {
      /* recorded as is */
    }
    const problem = this.secret === null ? undefined : verifySignature(headers['x-sandbox-signature'], raw, this.secret) ?? undefined;
    let answered = 200;
    if (this.failNext > 0) {
      this.failNext--;
      answered = this.failStatus;
    } else if (problem) answered = 401;
    const id = answered < 300 && this.secret !== null && typeof event?.id === 'string' ? event.id : undefined;
    const duplicate = this.dedupe && id !== undefined && this.taken.has(id);
    if (id !== undefined) this.taken.add(id);
    this.hits.push({
      receivedAt: new Date().toISOString(),
      headers,
      raw,
      event,
      signatureValid: this.secret === null ? null : !problem,
      ...(problem ? { signatureProblem: problem } : {}),
      answered,
      consumed: duplicate,
      ...(duplicate ? { duplicate } : {}),
    });
    for (const w of this.waiters) w();
    return answered;
  }

  /** Hits the receiver accepted (answered 2xx), verifying late signatures now that the secret is known. */
  accepted(): ReceivedWebhook[] {
    for (const h of this.hits) {
      if (h.signatureValid === null && this.secret !== null) {
        const problem = verifySignature(h.headers['x-sandbox-signature'], h.raw, this.secret);
        h.signatureValid = !problem;
        if (problem) h.signatureProblem = problem;
      }
    }
    return this.hits.filter((h) => h.answered < 300);
  }

  /** Resolves with the first hit that `pick` accepts, or null after `timeoutMs`. */
  waitFor(pick: (hits: ReceivedWebhook[]) => ReceivedWebhook | undefined, timeoutMs: number): Promise<ReceivedWebhook | null> {
    return new Promise((resolve) => {
      const check = () => {
        const hit = pick(this.accepted());
        if (!hit) return false;
        done(hit);
        return true;
      };
      const done = (v: ReceivedWebhook | null) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(v);
      };
      const wake = () => void check();
      const timer = setTimeout(() => done(null), timeoutMs);
      this.waiters.add(wake);
      check();
    });
  }
}

export class WebhookReceiver {
  private inboxes = new Map<string, Inbox>();
  private constructor(
    private server: http.Server,
    /** base URL the sandbox posts to */
    readonly baseUrl: string,
  ) {}

  /** Starts listening on `host` (port 0 = a free one); `publicBase` overrides the URL given to the sandbox. */
  static async start(host = '127.0.0.1', port = 0, publicBase?: string): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      req.on('end', () => {
        const m = /^\/hooks\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '');
        const inbox = m && req.method === 'POST' ? receiver?.inboxes.get(m[1]!) : undefined;
        if (!inbox) {
          res.writeHead(410).end();
          return;
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        const status = inbox.receive(headers, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ received: status < 300 }));
      });
    });
    server.keepAliveTimeout = 1000;
    const addr = await new Promise<AddressInfo>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve(server.address() as AddressInfo));
    });
    const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address;
    receiver = new WebhookReceiver(server, (publicBase ?? `http://${shownHost}:${addr.port}`).replace(/\/+$/, ''));
    return receiver;
  }

  open(id: string): { inbox: Inbox; url: string } {
    const inbox = new Inbox(id);
    this.inboxes.set(id, inbox);
    return { inbox, url: `${this.baseUrl}/hooks/${id}` };
  }

  close(id: string): void {
    this.inboxes.delete(id);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
