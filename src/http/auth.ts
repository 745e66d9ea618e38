// Resolves the principal of a Bearer token (docs/api.md#bearer-authentication): an account, or a merchant of one.
import type { Request, RequestHandler, Response } from 'express';
import jwt from 'jsonwebtoken';
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import type { Actor } from '../services/banking.js';
import { tokenKeys, VERIFIED_MAX, type TokenClaims, type TokenKeys } from '../services/tokens.js';
import type { Account, Merchant } from '../store/model.js';

interface AuthPrincipal {
  kind: 'account' | 'merchant';
  account: Readonly<Account>;
  merchant: Readonly<Merchant> | null;
  /** the merchant's id for a merchant token, else the account's */
  id: string;
}

/**
 * The claims of a token signed with the key; expiry is checked against the clock of the token's
 * own tenant (`nowSecondsOf(account id)`): tenants' clocks differ (docs/architecture.md#the-clock).
 */
function verifyToken(token: string, keys: TokenKeys, nowSecondsOf: (accountId: string) => number): TokenClaims {
  let claims = keys.verified.get(token);
  if (!claims) {
    claims = jwt.verify(token, keys.key, { algorithms: ['HS256'], ignoreExpiration: true }) as TokenClaims;
    if (keys.verified.size >= VERIFIED_MAX) keys.verified.clear();
    keys.verified.set(token, claims);
  }
  if (typeof claims.exp === 'number' && nowSecondsOf(String(claims.acc)) >= claims.exp)
    throw new jwt.TokenExpiredError('jwt expired', new Date(claims.exp * 1000));
  return claims;
}

function principalOf(res: Response): AuthPrincipal {
  return res.locals.principal as AuthPrincipal;
}

/** Whose money the request moves: the principal's account, and its merchant for a merchant token. */
export function actorOf(res: Response): Actor {
  const p = principalOf(res);
  return { accountId: p.account.id, merchantId: p.merchant?.id ?? null };
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
