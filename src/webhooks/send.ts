// One HTTP attempt: POST the body, wait at most `timeoutMs` for the answer's status line.
// node:http directly (not fetch) so that a hung receiver is cut at the deadline, connections
// are not pooled (a receiver restarting between attempts never meets a stale socket) and the
// dispatcher can abort everything in flight when the sandbox stops.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { httpsModule } from '../lazy-builtins.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../domain/webhook-signature.js';
import type { Config } from '../config.js';
import {
  addressAllowed,
  ANY_TARGET,
  hostVerdict,
  parseTargetPolicy,
  refusedTarget,
  webhookUrlProblem,
  type TargetPolicy,
} from '../domain/webhook-targets.js';

export const ATTEMPT_TIMEOUT_MS = 5000;

/** The headers of every webhook POST, a delivery's or an arbitrary send's (docs/webhooks.md). */
export function webhookHeaders(version: string, eventId: string, signature: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': `pix-sandbox/${version}`,
    [EVENT_ID_HEADER]: eventId,
    [SIGNATURE_HEADER]: signature,
  };
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** the sandbox is stopping: the attempt did not count */
  aborted: boolean;
}

const policies = new WeakMap<object, TargetPolicy>();

/** The --webhook-hosts policy of a sandbox's settings, read once (src/config-check.ts refused what it cannot read at start-up). */
export function targetPolicyOf(config: Pick<Config, 'webhookHosts'>): TargetPolicy {
  if (config.webhookHosts === null) return ANY_TARGET;
  let policy = policies.get(config.webhookHosts);
  if (!policy) policies.set(config.webhookHosts, (policy = parseTargetPolicy(config.webhookHosts)));
  return policy;
}

/**
 * A resolver that hands the connection only the addresses the policy lists, so that a name checked
 * by its addresses is reached at one of those (never at another address a second lookup gives).
 */
function checkedLookup(policy: TargetPolicy, host: string): typeof dnsLookup {
  return ((hostname: string, options: LookupOptions, callback: (e: Error | null, a: string | LookupAddress[], f?: number) => void) =>
    dnsLookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, options.all ? [] : '', 0);
      const allowed = found.filter((a) => addressAllowed(policy, a.address));
      if (allowed.length === 0) return callback(new Error(refusedTarget(host)), options.all ? [] : '', 0);
      if (options.all) callback(null, allowed);
      else callback(null, allowed[0]!.address, allowed[0]!.family);
    })) as unknown as typeof dnsLookup;
}

/**
 * One POST. Every way it can fail (a URL no endpoint may have, a target --webhook-hosts refuses, a
 * connection error, a timeout, a throw of node's http client itself) is an answer with `error`,
 * never a rejection: the caller records it as a failed attempt (docs/webhooks.md#delivery-and-retries).
 */
export function send(
  url: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  { policy = ANY_TARGET, timeoutMs = ATTEMPT_TIMEOUT_MS }: { policy?: TargetPolicy; timeoutMs?: number } = {},
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs' | 'aborted'>, aborted = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({ ...r, durationMs: elapsed(), aborted });
    };
    const failed = (error: string) => resolve({ statusCode: null, error, durationMs: elapsed(), aborted: false });
    const problem = webhookUrlProblem(url);
    if (problem) return failed(`invalid URL: the endpoint's URL ${problem}`);
    if (signal.aborted) return resolve({ statusCode: null, error: 'aborted: the sandbox is stopping', durationMs: 0, aborted: true });
    const target = new URL(url);
    const verdict = hostVerdict(policy, target.hostname);
    if (verdict === 'no') return failed(refusedTarget(target.hostname));
    const mod = target.protocol === 'https:' ? httpsModule() : http;
    let req: http.ClientRequest;
    try {
      req = mod.request(target, {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' },
        ...(verdict === 'resolve' ? { lookup: checkedLookup(policy, target.hostname) } : {}),
      });
    } catch (e) {
      // node's client throws before any I/O for what it cannot send (a header value, an agent option)
      return failed(errorText(e as NodeJS.ErrnoException));
    }
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timeout: no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    const onAbort = () => {
      finish({ statusCode: null, error: 'aborted: the sandbox is stopping' }, true);
      req.destroy();
    };
    signal.addEventListener('abort', onAbort);
    req.on('response', (res) => {
      finish({ statusCode: res.statusCode ?? null, error: null });
      res.resume(); // the answer's body does not matter; drain it so the socket can close
      res.on('error', () => undefined);
    });
    req.on('error', (e: NodeJS.ErrnoException) => finish({ statusCode: null, error: errorText(e) }));
    req.end(body);
  });
}

const errorText = (e: NodeJS.ErrnoException): string => (e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message);
