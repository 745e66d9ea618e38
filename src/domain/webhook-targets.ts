// Where a webhook may go (docs/webhooks.md#where-webhooks-may-go). One URL rule for every way an
// endpoint is made (the control API, fixture files and inline fixtures, --webhook-url), and the
// --webhook-hosts policy that decides which hosts an attempt may reach. Pure: the policy answers for a
// host name or an address; the sender resolves names and asks it about each address it would connect to.
import { BlockList, isIP } from 'node:net';

const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Why `url` cannot be a webhook endpoint's URL (http or https, a host, a port from 1 to 65535), or null when it can. */
export function webhookUrlProblem(url: string): string | null {
  if (url.length > WEBHOOK_URL_MAX_LENGTH) return `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters long`;
  let parsed: URL;
  try {
    parsed = new URL(url); // refuses a port above 65535 and a special scheme without a host
  } catch {
    return 'must be an absolute http:// or https:// URL with a host and a valid port';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `must be an http:// or https:// URL (not ${parsed.protocol.slice(0, 40)})`;
  if (parsed.hostname === '') return 'must name a host';
  if (parsed.port === '0') return 'must name a port from 1 to 65535';
  return null;
}

/**
 * What --webhook-hosts allows: every host (the default), or the hosts named (exactly, or under a
 * `*.` wildcard) and the addresses listed (an IP, or a CIDR block). A name none of the names
 * allows may still be reached when every address it resolves to is listed.
 */
export interface TargetPolicy {
  any: boolean;
  names: ReadonlySet<string>;
  /** `.example.com` for `*.example.com` */
  suffixes: readonly string[];
  addresses: BlockList;
  /** whether any address or block is listed (else a name is never resolved to be checked) */
  hasAddresses: boolean;
}

export const ANY_TARGET: TargetPolicy = { any: true, names: new Set(), suffixes: [], addresses: new BlockList(), hasAddresses: false };

/** An IPv6 address as URLs write it, without its brackets; names lower-cased, without a final dot. */
const bareHost = (host: string): string =>
  host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();

const NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*)$/;

/** The policy of a list of entries (null: any host); throws an Error naming every entry it cannot read. */
export function parseTargetPolicy(entries: readonly string[] | null): TargetPolicy {
  if (entries === null) return ANY_TARGET;
  const names = new Set<string>();
  const suffixes: string[] = [];
  const addresses = new BlockList();
  let hasAddresses = false;
  const bad: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    const [address, prefix, extra] = bareHost(entry).split('/');
    const family = isIP(address!);
    if (family !== 0 && extra === undefined) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) addresses.addAddress(address!, type);
      else if (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)) addresses.addSubnet(address!, Number(prefix), type);
      else {
        bad.push(raw);
        continue;
      }
      hasAddresses = true;
      continue;
    }
    const name = NAME.exec(entry.replace(/\.$/, ''));
    if (!name || entry.length > 253) bad.push(raw);
    else if (name[1]) suffixes.push(`.${name[2]}`);
    else names.add(name[2]!);
  }
  if (bad.length > 0)
    throw new Error(
      `cannot read ${bad.map((b) => JSON.stringify(b)).join(', ')}: each entry is a host name, *.a.wildcard, an IP address or a CIDR block`,
    );
  return { any: false, names, suffixes, addresses, hasAddresses };
}

/**
 * Whether a URL's host may be reached: 'yes', 'no', or 'resolve' (a name no entry names, while
 * addresses are listed: it may be reached at those of its addresses that are listed).
 */
export function hostVerdict(policy: TargetPolicy, host: string): 'yes' | 'no' | 'resolve' {
  if (policy.any) return 'yes';
  const h = bareHost(host);
  const family = isIP(h);
  if (family !== 0) return addressAllowed(policy, h) ? 'yes' : 'no';
  if (policy.names.has(h) || policy.suffixes.some((s) => h.endsWith(s))) return 'yes';
  return policy.hasAddresses ? 'resolve' : 'no';
}

export function addressAllowed(policy: TargetPolicy, address: string): boolean {
  if (policy.any) return true;
  const family = isIP(address);
  return family !== 0 && policy.addresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The error an attempt records for a target the policy refuses: a failed attempt, like an unreachable target's. */
export const refusedTarget = (host: string): string =>
  `unreachable: ${bareHost(host).slice(0, 255)} is not among the hosts webhooks may reach (--webhook-hosts)`;
