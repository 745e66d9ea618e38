// Why an expected webhook did not arrive, as the sandbox saw it: its delivery log for the scenario's
// endpoint (GET /_sandbox/webhooks/deliveries?endpointId=), each delivery's attempts told as what
// they got (connection refused, timed out, the status the receiver answered). When the sandbox could
// not reach the receiver at all, the runner's receiver is likely on an address the sandbox cannot see
// (a sandbox in a container posting to 127.0.0.1): say which address reaches the host from there.
import type { WebhookDelivery } from '../client/control-client.js';
import type { ScenarioState } from './state.js';

/** the newest deliveries a failure message tells about */
const SHOWN = 3;

type Attempt = WebhookDelivery['attempts'][number];

/** What one attempt got, in words a tester reads first; the sandbox's own error text after it. */
function attemptOutcome(a: Pick<Attempt, 'statusCode' | 'error'>): string {
  if (a.statusCode !== null) return `answered ${a.statusCode}`;
  const error = a.error ?? 'no answer';
  const said = (words: string) => `${words} (${error})`;
  if (/ECONNREFUSED/.test(error)) return said('connection refused');
  if (/^timeout|ETIMEDOUT/.test(error)) return said('timed out');
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return said('host not found');
  if (/EHOSTUNREACH|ENETUNREACH/.test(error)) return said('host unreachable');
  if (/ECONNRESET|socket hang up/.test(error)) return said('connection reset');
  return error;
}

function describeDelivery(d: WebhookDelivery): string {
  const tries = d.attempts.length;
  const head = `${d.eventType} ${d.status}`;
  if (!tries) return `${head}, no attempt yet${d.nextAttemptAt ? ` (first at ${d.nextAttemptAt})` : ''}`;
  // the same outcome repeated is said once, with its count
  const outcomes: [string, number][] = [];
  for (const a of d.attempts) {
    const o = attemptOutcome(a);
    const last = outcomes.at(-1);
    if (last?.[0] === o) last[1]++;
    else outcomes.push([o, 1]);
  }
  const told = outcomes.map(([o, n]) => (n > 1 ? `${o} ×${n}` : o)).join(', then ');
  return `${head} after ${tries} attempt${tries > 1 ? 's' : ''}: ${told}${d.nextAttemptAt ? `; next attempt at ${d.nextAttemptAt}` : ''}`;
}

/** The receiver address a sandbox in a container reaches this machine's receiver at, for the hint. */
function containerHint(url: string): string {
  const port = new URL(url).port || '80';
  return (
    `the sandbox could not reach the receiver at ${url}. A sandbox in a container reaches this machine at ` +
    `host.docker.internal (Docker; on Linux run it with --add-host=host.docker.internal:host-gateway) or ` +
    `host.containers.internal (podman): run the scenarios with --receiver-host 0.0.0.0 --receiver-port ${port} ` +
    `--receiver-url http://host.docker.internal:${port} (or http://host.containers.internal:${port})`
  );
}

/**
 * Sentences for the failure of an expectWebhook step: what the sandbox's deliveries of `type` (or of
 * any type, when none of it was made) to the scenario's endpoint got, and the container hint when
 * no attempt reached the receiver. Never throws: a log that cannot be read is said so.
 */
export async function deliveryReport(st: ScenarioState, type: string): Promise<string[]> {
  if (!st.endpointId) return [];
  let all: WebhookDelivery[];
  try {
    all = await st.env.client.webhooks.deliveries({ endpointId: st.endpointId, limit: 50 });
  } catch (e) {
    return [`the sandbox's delivery log could not be read: ${(e as Error).message}`];
  }
  if (!all.length) return ['the sandbox made no delivery to the scenario\'s receiver (did the step before cause the event?)'];
  const ofType = all.filter((d) => d.eventType === type);
  const told = (ofType.length ? ofType : all).slice(0, SHOWN);
  const more = (ofType.length || all.length) - told.length;
  const url = told[0]!.url;
  const lines = [
    `the sandbox's deliveries to ${url ?? "the scenario's receiver"}${ofType.length ? '' : ` (none of ${type})`}: ${told.map(describeDelivery).join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
  ];
  const attempts = all.flatMap((d) => d.attempts);
  if (url && attempts.length && attempts.every((a) => a.statusCode === null)) lines.push(containerHint(url));
  return lines;
}
