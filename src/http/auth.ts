// Resolves the principal of a Bearer token (docs/api.md#bearer-authentication): an account, or a merchant of one.
import type { Request, RequestHandler, Response } from 'express';
import jwt from 'jsonwebtoken';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import type { Account, Merchant } from '../store/model.js';
import { tokenKeys, VERIFIED_MAX, type TokenClaims, type TokenKeys } from './token-keys.js';

export interface AuthPrincipal {
  kind: 'account' | 'merchant';
  account: Readonly<Account>;
  merchant: Readonly<Merchant> | null;
  /** the merchant's id for a merchant token, else the account's */
  id: string;
}

export const TOKEN_TTL_SECONDS = 300;

/** A token the sandbox could have signed: numeric `iat` and `exp`, at most 300 s apart, and a numeric generation. */
const wellFormed = (c: Partial<TokenClaims>): c is TokenClaims =>
  typeof c.iat === 'number' &&
  typeof c.exp === 'number' &&
  typeof c.gen === 'number' &&
  c.exp > c.iat &&
  c.exp - c.iat <= TOKEN_TTL_SECONDS;

class MalformedToken extends Error {}

/**
 * The claims of a token signed with the key; expiry is checked against the clock of the token's
 * own tenant (`nowSecondsOf(account id)`): tenants' clocks differ (docs/architecture.md#the-clock).
 * A token must say when it expires, no later than 300 s after it was issued, and not have been
 * issued after its tenant's now: even one signed with the key (read from the data file) lives no longer.
 */
function verifyToken(token: string, keys: TokenKeys, nowSecondsOf: (accountId: string) => number): TokenClaims {
  let claims = keys.verified.get(token);
  if (!claims) {
    const verified = jwt.verify(token, keys.key, { algorithms: ['HS256'], ignoreExpiration: true }) as Partial<TokenClaims>;
    if (!wellFormed(verified)) throw new MalformedToken('the token must carry numeric iat, exp (at most 300 s later) and gen');
    claims = verified;
    if (keys.verified.size >= VERIFIED_MAX) keys.verified.clear();
    keys.verified.set(token, claims);
  }
  const now = nowSecondsOf(String(claims.acc));
  if (claims.iat > now) throw new MalformedToken('the token was issued after its tenant’s now');
  if (now >= claims.exp) throw new jwt.TokenExpiredError('jwt expired', new Date(claims.exp * 1000));
  return claims;
}

export function signToken(
  ctx: AppContext,
  principal: { clientId: string; accountId: string; merchantId: string | null; generation: number },
): string {
  const iat = ctx.clockOf(principal.accountId).nowSeconds();
  const claims: Record<string, unknown> = {
    sub: principal.clientId,
    acc: principal.accountId,
    jti: ctx.newId(),
    iat,
    exp: iat + TOKEN_TTL_SECONDS,
    gen: principal.generation,
  };
  if (principal.merchantId) claims.mer = principal.merchantId;
  return jwt.sign(claims, tokenKeys(ctx).key, { algorithm: 'HS256' });
}

export function principalOf(res: Response): AuthPrincipal {
  return res.locals.principal as AuthPrincipal;
}

export function authenticate(ctx: AppContext): RequestHandler {
  // made once, not per request: the tenant's now without building a Clock
  const nowSecondsOf = (accountId: string) => Math.floor(ctx.nowMsOf(accountId) / 1000);
  return (req: Request, res, next) => {
    const header = req.get('authorization');
    const match = header ? /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header) : null;
    if (!match) {
      const why = header ? 'the Authorization header must be "Bearer <access_token>"' : 'the Authorization header is missing';
      return next(new SandboxError('UNAUTHORIZED', `${why}; get a token at POST /v1/oauth/token`));
    }
    let claims: TokenClaims;
    try {
      claims = verifyToken(match[1]!, tokenKeys(ctx), nowSecondsOf);
    } catch (e) {
      if ((e as Error).name === 'TokenExpiredError')
        return next(new SandboxError('TOKEN_EXPIRED', 'the access token has expired (tokens last 300 seconds); request a new one'));
      return next(new SandboxError('INVALID_TOKEN', 'the access token is not valid'));
    }
    const account = typeof claims.acc === 'string' ? ctx.store.accounts.get(claims.acc) : undefined;
    const merchant = typeof claims.mer === 'string' ? ctx.store.merchants.get(claims.mer) : undefined;
    if (!account || (claims.mer && (!merchant || merchant.accountId !== account.id)))
      return next(new SandboxError('INVALID_TOKEN', 'the access token belongs to a client that no longer exists'));
    // a principal made again (same id) or whose credentials changed has a new generation
    if (claims.gen !== ((merchant ?? account).tokenGeneration ?? 0))
      return next(
        new SandboxError('INVALID_TOKEN', 'the access token was issued before its client was made again or its credentials changed'),
      );
    if (merchant && merchant.status !== 'ACTIVE')
      return next(
        new SandboxError('MERCHANT_NOT_ACTIVE', `the merchant is ${merchant.status}; its tokens are refused until it is ACTIVE again`),
      );
    res.locals.principal = {
      kind: merchant ? 'merchant' : 'account',
      account,
      merchant: merchant ?? null,
      id: merchant ? merchant.id : account.id,
    } satisfies AuthPrincipal;
    next();
  };
}

/** Rejects merchant tokens (docs/decisions.md#d2-merchants-are-principals: merchant management needs the account). */
export const accountOnly: RequestHandler = (_req, res, next) => {
  if (principalOf(res).kind !== 'account')
    return next(new SandboxError('FORBIDDEN', 'this operation needs an account token, not a merchant token'));
  next();
};

export const merchantOnly: RequestHandler = (_req, res, next) => {
  if (principalOf(res).kind !== 'merchant')
    return next(new SandboxError('FORBIDDEN', 'this operation needs a merchant token (the account has GET /v1/banking/balance)'));
  next();
};
