// No web page drives the sandbox (docs/security.md#cross-site-requests, docs/decisions.md#d68-no-web-page-drives-the-control-api).
// The control API and the dashboard (/_sandbox, health aside) answer only requests that could not have
// come from another site's page: a `Host` the sandbox serves (an IP address, localhost or a name under
// it, a one-label name such as a compose service's, or a name of --allowed-hosts: a DNS-rebinding page
// names its own domain), no `Origin` but the sandbox's own and no `Sec-Fetch-Site` but same-origin or
// none (a browser marks what another page sends), and no body type but JSON (a form or text/plain is
// what a page may send anywhere without asking first), even with no body. A request that names neither
// (curl, the clients, the CLI) passes. The public API (/v1, /pix) is untouched: apps call it from servers.
import type { TLSSocket } from 'node:tls';
import { isIP } from 'node:net';
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';

const GUARDED = /^\/_sandbox(\/|$)/;
const OPEN = /^\/_sandbox\/health\/?$/;
const DASHBOARD = /^\/_sandbox\/ui(\/|$)/;
const NAME = /^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;

interface AllowedHosts {
  names: ReadonlySet<string>;
  /** `.example.com` for `*.example.com` */
  suffixes: readonly string[];
}

/** --allowed-hosts: exact names and `*.` wildcards; throws an Error naming every entry it cannot read. */
export function parseAllowedHosts(entries: readonly string[]): AllowedHosts {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const bad: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase().replace(/\.$/, '');
    const wildcard = entry.startsWith('*.');
    const name = wildcard ? entry.slice(2) : entry;
    if (!NAME.test(name) || name.length > 253) bad.push(raw);
    else if (wildcard) suffixes.push(`.${name}`);
    else names.add(name);
  }
  if (bad.length > 0)
    throw new Error(`cannot read ${bad.map((b) => JSON.stringify(b)).join(', ')}: each entry is a host name or a *.wildcard of one`);
  return { names, suffixes };
}

/** The host name of a Host header, lower-cased, without its port or a final dot; an IPv6 address without brackets. */
function hostName(host: string): string {
  const h = host.toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') === -1 ? undefined : h.indexOf(']'));
  const colon = h.indexOf(':');
  return (colon === -1 ? h : h.slice(0, colon)).replace(/\.$/, '');
}

/** Whether the sandbox answers a request sent to this Host. */
function hostServed(host: string, allowed: AllowedHosts): boolean {
  const name = hostName(host);
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
  if (NAME.test(name) && !name.includes('.')) return true; // compose services, CI service containers
  return allowed.names.has(name) || allowed.suffixes.some((s) => name.endsWith(s));
}

/** The origin (scheme://host[:port], default port left out) a URL-ish string names; null when it names none. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

const forbidden = (message: string) => new SandboxError('FORBIDDEN', message);

/** JSON's media types (parameters aside): what a control request may name, as the body parser reads them (./body.ts). */
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** A link followed or an address typed: the dashboard's page may open from anywhere (it holds no data; its calls are same-origin). */
const dashboardNavigation = (req: Request): boolean =>
  DASHBOARD.test(req.path) &&
  req.method === 'GET' &&
  req.get('sec-fetch-mode') === 'navigate' &&
  (req.get('sec-fetch-dest') ?? 'document') === 'document';

/** Why the request is refused, or null. */
function refusal(req: Request, allowed: AllowedHosts, publicOrigin: string | null): SandboxError | null {
  const host = req.headers.host;
  if (host !== undefined && !hostServed(host, allowed))
    return forbidden(
      `this sandbox does not answer its control API for the host "${hostName(host).slice(0, 100)}"; ` +
        'add it to --allowed-hosts (PIX_SANDBOX_ALLOWED_HOSTS) if it is yours',
    );
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !dashboardNavigation(req))
    return forbidden(`a request another site's page sent (Sec-Fetch-Site: ${String(site).slice(0, 20)}) is refused by the control API`);
  const origin = req.headers.origin;
  if (origin !== undefined) {
    // behind a proxy that ends TLS, the scheme the page used is the proxy's to say: a page cannot add
    // X-Forwarded-Proto to a request without a preflight, so a page of another site cannot fake it
    const forwarded = req.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : (req.socket as TLSSocket).encrypted ? 'https' : 'http';
    const own = host === undefined ? null : originOf(`${scheme}://${host}`);
    const given = originOf(origin);
    if (given === null || (given !== own && given !== publicOrigin))
      return forbidden(`a request from the page of ${given ?? 'an opaque origin'} is refused: the control API answers only its own pages`);
  }
  const type = req.headers['content-type'];
  if (type !== undefined && !JSON_TYPE.test(type))
    return new SandboxError(
      'UNSUPPORTED_MEDIA_TYPE',
      `a control request names no Content-Type but application/json, even without a body (got ${type.slice(0, 100)})`,
    );
  return null;
}

/** The stage (src/app.ts): on /_sandbox only (health aside), one test of the path for every other request. */
export function crossSiteStage(ctx: AppContext): RequestHandler {
  const allowed = parseAllowedHosts(ctx.config.allowedHosts);
  const publicOrigin = ctx.config.publicUrl ? originOf(ctx.config.publicUrl) : null;
  return (req, _res, next) => {
    if (!GUARDED.test(req.path) || OPEN.test(req.path)) return next();
    next(refusal(req, allowed, publicOrigin) ?? undefined);
  };
}
