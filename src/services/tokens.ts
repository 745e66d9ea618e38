// POST /v1/oauth/token (docs/decisions.md#d5-the-token-endpoint-speaks-oauth-20): the client
// credentials grant, and the sandbox's token-signing key. A token lasts 300 seconds by the clock of
// its tenant; http/auth.ts checks it on every bearer request with the same key.
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { AppContext } from '../context.js';
import { verifySecret } from '../domain/credentials.js';
import type { OAuthErrorCode } from '../store/model.js';

export const TOKEN_TTL_SECONDS = 300;

export interface TokenClaims {
  sub: string;
  acc: string;
  mer?: string;
  jti: string;
  iat: number;
  exp: number;
  /** the principal's token generation when it was issued (docs/api.md#bearer-authentication) */
  gen: number;
}

/**
 * A sandbox's signing key and the tokens verified with it (kept in its context). jsonwebtoken turns a
 * string secret into a key on every call, first trying (and failing) to read it as a PEM public key:
 * that cost more than all the rest of a lookup. And a token's signature is checked once; its claims
 * are then reused while the token lives. Expiry is still checked on every request against the sandbox
 * clock (which can jump forward).
 */
export interface TokenKeys {
  secret: string;
  key: KeyObject;
  verified: Map<string, TokenClaims>;
}
export const VERIFIED_MAX = 10_000;

export function tokenKeys(ctx: AppContext): TokenKeys {
  const secret = ctx.store.meta.signingSecret;
  if (ctx.tokenKeys?.secret !== secret) ctx.tokenKeys = { secret, key: createSecretKey(Buffer.from(secret)), verified: new Map() };
  return ctx.tokenKeys;
}

function signToken(
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

/** A token request as it came: the body's fields as sent, and the credentials of an HTTP Basic header. */
export interface TokenRequest {
  grantType: unknown;
  clientId: unknown;
  clientSecret: unknown;
  /** from `Authorization: Basic`: null without one, 'malformed' when it cannot be read */
  basic: { id: string; secret: string } | null | 'malformed';
}

/** A token, or the RFC 6749 §5.2 error to answer (`basic`: the client authenticated with HTTP Basic). */
export type TokenAnswer =
  | { ok: true; accessToken: string; expiresIn: number }
  | { ok: false; status: 400 | 401; error: OAuthErrorCode; description: string; basic: boolean };

const refuse = (status: 400 | 401, error: OAuthErrorCode, description: string, basic = false): TokenAnswer => ({
  ok: false,
  status,
  error,
  description,
  basic,
});
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const AUTH_FAILED = 'client authentication failed (unknown client_id or wrong client_secret)';

/**
 * The client credentials grant: grant_type (client_credentials when left out), credentials in the body
 * or in HTTP Basic but not both, the client (an account or a merchant) and its secret, an ACTIVE
 * merchant, then a token for that principal, signed by the clock of its tenant.
 */
export async function issueToken(ctx: AppContext, r: TokenRequest): Promise<TokenAnswer> {
  const grantType = str(r.grantType) ?? (r.grantType === undefined ? 'client_credentials' : undefined);
  if (grantType === undefined) return refuse(400, 'invalid_request', 'grant_type must be a string');
  if (grantType !== 'client_credentials')
    return refuse(400, 'unsupported_grant_type', `grant_type "${grantType.slice(0, 40)}" is not supported; use client_credentials`);
  if (r.basic === 'malformed') return refuse(400, 'invalid_request', 'the Basic Authorization header is malformed');
  const bodyId = str(r.clientId);
  const bodySecret = str(r.clientSecret);
  const basic = r.basic !== null;
  if (r.basic && (bodyId !== undefined || bodySecret !== undefined))
    return refuse(400, 'invalid_request', 'send client credentials either in the Authorization header or in the body, not both');
  const id = r.basic?.id ?? bodyId;
  const secret = r.basic?.secret ?? bodySecret;
  if (!id || !secret) return refuse(401, 'invalid_client', 'client_id and client_secret are required', basic);

  const account = ctx.store.accounts.findOne('byClientId', id);
  const principal = account ?? ctx.store.merchants.findOne('byClientId', id);
  // an unknown client_id costs the same hashing as a wrong secret (docs/decisions.md#d74-the-token-endpoint-takes-as-long-for-any-client_id)
  if (!(await verifySecret(secret, principal?.secretHash)) || !principal) return refuse(401, 'invalid_client', AUTH_FAILED, basic);
  // read again after the wait: the merchant may have changed (or gone) meanwhile
  const merchant = account ? undefined : ctx.store.merchants.get(principal.id);
  if (!account && !merchant) return refuse(401, 'invalid_client', AUTH_FAILED, basic);
  if (merchant && merchant.status !== 'ACTIVE')
    return refuse(400, 'unauthorized_client', `the merchant is ${merchant.status} and cannot obtain tokens`);

  const accessToken = signToken(ctx, {
    clientId: id,
    accountId: merchant ? merchant.accountId : principal.id,
    merchantId: merchant ? merchant.id : null,
    generation: principal.tokenGeneration ?? 0, // as verified: a principal made again meanwhile refuses this token
  });
  return { ok: true, accessToken, expiresIn: TOKEN_TTL_SECONDS };
}
