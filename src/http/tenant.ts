// The tenant (account) a request belongs to (docs/control-api.md#scoped-arrangements): the fault stage
// asks it to try a tenant's own faults first, the journal files each entry under it, and the control
// stage sets it for a call made with a tenant's token. Learned once per request and kept on it:
// - a Bearer token whose signature is this sandbox's (verified, or found among the verified ones)
//   names its account, while that account exists, expired or not; an unverified token names nobody;
// - a token request names the account of its client_id (an account's, or its merchant's), from HTTP
//   Basic or from its body, JSON or form: the body is read for it only when a tenant's own fault might
//   apply (parseBody keeps what it read for the token endpoint itself).
import type { Request, Response } from 'express';
import type { AppContext } from '../context.js';
import type { Reads } from '../store/store.js';
import { basicCredentials, bearerToken, claimsPrincipal, verifiedClaims, type AuthPrincipal } from './auth.js';
import { hasBody, parseBody } from './body.js';

/** The token endpoint: its requests name their tenant by client_id (src/api/oauth.ts answers there). */
export const TOKEN_PATH = '/v1/oauth/token';

/** The tenant a request belongs to: an account id, or null when none can be told. */
export type Tenant = string | null;

/** The account of a client_id: an account's own, or its merchant's (two index lookups). */
export function clientTenant(data: Reads, clientId: string): Tenant {
  return data.accounts.findOne('byClientId', clientId)?.id ?? data.merchants.findOne('byClientId', clientId)?.accountId ?? null;
}

/** The client_id of an HTTP Basic header, or undefined. */
function basicClientId(header: string | undefined): string | undefined {
  const basic = basicCredentials(header);
  return basic && basic !== 'malformed' ? basic.id : undefined;
}

const bodyClientId = (body: unknown): string | undefined => {
  const id = body && typeof body === 'object' ? (body as { client_id?: unknown }).client_id : undefined;
  return typeof id === 'string' ? id : undefined;
};

/** A token request's client_id: from HTTP Basic, else from its body once read; undefined when it names none. */
export const tokenClientId = (req: Request): string | undefined => basicClientId(req.get('authorization')) ?? bodyClientId(req.body);

/**
 * What the request tells without reading anything more: its authenticated principal, its verified
 * token, or its token request's client_id (Basic, or a body already read). Null when nothing does.
 */
export function knownTenant(ctx: AppContext, req: Request, res: Response): Tenant {
  const memo = res.locals.tenant as Tenant | undefined;
  if (memo !== undefined) return memo;
  const principal = res.locals.principal as AuthPrincipal | undefined;
  if (principal) return principal.account.id;
  const header = req.get('authorization');
  const token = bearerToken(header);
  if (token) {
    const claims = verifiedClaims(ctx, token);
    return (claims && claimsPrincipal(ctx, claims)?.account.id) ?? null;
  }
  if (req.path !== TOKEN_PATH) return null;
  const clientId = tokenClientId(req);
  return clientId === undefined ? null : clientTenant(ctx.store, clientId);
}

/** the token endpoint's reading of its body (made on first use: body.ts and this module import each other) */
let readTokenBody: ReturnType<typeof parseBody> | undefined;

/** The request's tenant, reading a token request's body when it must; kept on the request. */
export async function requestTenant(ctx: AppContext, req: Request, res: Response): Promise<Tenant> {
  const memo = res.locals.tenant as Tenant | undefined;
  if (memo !== undefined) return memo;
  if (req.path === TOKEN_PATH && basicClientId(req.get('authorization')) === undefined && hasBody(req))
    // a body that cannot be read names nobody; the token endpoint answers its error itself
    await new Promise<void>((resolve) => (readTokenBody ??= parseBody(true))(req, res, () => resolve()));
  const tenant = knownTenant(ctx, req, res);
  res.locals.tenant = tenant;
  return tenant;
}
