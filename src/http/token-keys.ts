// A sandbox's token-signing key and the tokens verified with it, kept in its context. Apart from
// auth.ts (express middleware) because the app context's type names them, and a consumer of the
// package's types must not need express's types (skipLibCheck: false).
import { createSecretKey, type KeyObject } from 'node:crypto';
import type { AppContext } from '../context.js';

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
