// Resolves the principal of a Bearer token (docs/api.md#bearer-authentication): an account, or a merchant of one.
import type { Request, RequestHandler, Response } from 'express';
import jwt from 'jsonwebtoken';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import type { Actor } from '../services/banking.js';
import { tokenKeys, TOKEN_TTL_SECONDS, VERIFIED_MAX, type TokenClaims } from '../services/tokens.js';
import type { Account, Merchant } from '../store/model.js';

export interface AuthPrincipal {
  kind: 'account' | 'merchant';
  account: Readonly<Account>;
  merchant: Readonly<Merchant> | null;
  /** the merchant's id for a merchant token, else the account's */
  id: string;
}

/** A token the sandbox could have signed: numeric `iat` and `exp`, at most 300 s apart, and a numeric generation. */
const wellFormed = (c: Partial<TokenClaims>): c is TokenClaims =>
  typeof c.iat === 'number' &&
  typeof c.exp === 'number' &&
  typeof c.gen === 'number' &&
  c.exp > c.iat &&
  c.exp - c.iat <= TOKEN_TTL_SECONDS;

/**
 * The claims of a token signed with this sandbox's key, or null: its signature is checked once, then
 * its claims are reused while it lives (expiry is not checked here: see bearerPrincipal). Only claims
 * that came through here may decide anything, a request's tenant included (./tenant.ts).
 */
export function verifiedClaims(ctx: AppContext, token: string): TokenClaims | null {
  const keys = tokenKeys(ctx);
  let claims = keys.verified.get(token);
  if (!claims) {
    try {
      const verified = jwt.verify(token, keys.key, { algorithms: ['HS256'], ignoreExpiration: true }) as Partial<TokenClaims>;
      // even a token signed with the key (read from the data file) must say when it expires, no later than 300 s after it was issued
      if (!wellFormed(verified)) return null;
      claims = verified;
    } catch {
      return null;
    }
    if (keys.verified.size >= VERIFIED_MAX) keys.verified.clear();
    keys.verified.set(token, claims);
  }
  return claims;
}

/**
 * The account (and merchant) a token's verified claims name, while they exist; null once either is
 * gone (a deleted tenant's tokens are refused so). Issue 22's token generations are checked here: a
 * token of an earlier generation of its principal (an id deleted and created again, credentials reset)
 * names nobody.
 */
export function claimsPrincipal(
  ctx: AppContext,
  claims: TokenClaims,
): { account: Readonly<Account>; merchant: Readonly<Merchant> | null } | null {
  const account = typeof claims.acc === 'string' ? ctx.store.accounts.get(claims.acc) : undefined;
  if (!account) return null;
  if (claims.mer === undefined) return claims.gen === (account.tokenGeneration ?? 0) ? { account, merchant: null } : null;
  const merchant = typeof claims.mer === 'string' ? ctx.store.merchants.get(claims.mer) : undefined;
  return merchant && merchant.accountId === account.id && claims.gen === (merchant.tokenGeneration ?? 0) ? { account, merchant } : null;
}

/** The client credentials of an HTTP Basic header (RFC 6749 §2.3.1), null without one, 'malformed' for one that cannot be read. */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep < 0) return 'malformed';
  try {
    // both parts are form-urlencoded before joining
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: dec(decoded.slice(0, sep)), secret: dec(decoded.slice(sep + 1)) };
  } catch {
    return 'malformed';
  }
}

/** The token of an `Authorization: Bearer <token>` header, null for a header that is not one, undefined without a header. */
export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  return /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header)?.[1] ?? null;
}

/**
 * Whom an Authorization header authenticates (docs/api.md#bearer-authentication), for the public API and
 * the control API alike; throws the 401 that says why not. Expiry is checked against the clock of the
 * token's own tenant (`nowSecondsOf(account id)`): tenants' clocks differ (docs/architecture.md#the-clock).
 */
export function bearerPrincipal(ctx: AppContext, header: string | undefined, nowSecondsOf: (accountId: string) => number): AuthPrincipal {
  const token = bearerToken(header);
  if (!token) {
    const why = header ? 'the Authorization header must be "Bearer <access_token>"' : 'the Authorization header is missing';
    throw new SandboxError('UNAUTHORIZED', `${why}; get a token at POST /v1/oauth/token`);
  }
  const claims = verifiedClaims(ctx, token);
  if (!claims) throw new SandboxError('INVALID_TOKEN', 'the access token is not valid');
  // who first: a deleted tenant's clock is gone, so its tokens are judged by whether their client exists
  const named = claimsPrincipal(ctx, claims);
  if (!named) {
    const exists =
      typeof claims.acc === 'string' &&
      ctx.store.accounts.has(claims.acc) &&
      (claims.mer === undefined || ctx.store.merchants.has(String(claims.mer)));
    throw new SandboxError(
      'INVALID_TOKEN',
      exists
        ? 'the access token was issued before its client was made again or its credentials changed'
        : 'the access token belongs to a client that no longer exists',
    );
  }
  const now = nowSecondsOf(named.account.id);
  if (claims.iat > now) throw new SandboxError('INVALID_TOKEN', "the access token is not valid (issued after its tenant's now)");
  if (now >= claims.exp)
    throw new SandboxError('TOKEN_EXPIRED', 'the access token has expired (tokens last 300 seconds); request a new one');
  const { account, merchant } = named;
  return { kind: merchant ? 'merchant' : 'account', account, merchant, id: merchant ? merchant.id : account.id };
}

/** The tenant's now in seconds, made once per stage (not per request): without building a Clock. */
export const nowSecondsOf =
  (ctx: AppContext) =>
  (accountId: string): number =>
    Math.floor(ctx.nowMsOf(accountId) / 1000);

function principalOf(res: Response): AuthPrincipal {
  return res.locals.principal as AuthPrincipal;
}

/** Whose money the request moves: the principal's account, and its merchant for a merchant token. */
export function actorOf(res: Response): Actor {
  const p = principalOf(res);
  return { accountId: p.account.id, merchantId: p.merchant?.id ?? null };
}

export function authenticate(ctx: AppContext): RequestHandler {
  const now = nowSecondsOf(ctx);
  return (req: Request, res, next) => {
    let principal: AuthPrincipal;
    try {
      principal = bearerPrincipal(ctx, req.get('authorization'), now);
    } catch (e) {
      return next(e);
    }
    if (principal.merchant && principal.merchant.status !== 'ACTIVE')
      return next(
        new SandboxError(
          'MERCHANT_NOT_ACTIVE',
          `the merchant is ${principal.merchant.status}; its tokens are refused until it is ACTIVE again`,
        ),
      );
    res.locals.principal = principal;
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
