// POST /v1/oauth/token (docs/decisions.md#d5-the-token-endpoint-speaks-oauth-20): JSON or form bodies, credentials in the body or in HTTP
// Basic, errors exactly as RFC 6749 §5.2 so that stock OAuth 2.0 clients parse them.
import type { Request, RequestHandler, Response } from 'express';
import { verifySecret } from '../domain/credentials.js';
import { signToken, TOKEN_TTL_SECONDS } from '../http/auth.js';
import { parseBody } from '../http/body.js';
import { route } from '../http/operations.js';
import { header, noStore, ok } from '../schemas/operation.js';
import { tokenRequestSchema } from '../schemas/public.js';
import * as R from '../schemas/responses.js';
import type { OAuthErrorCode } from '../store/model.js';

function oauthError(res: Response, status: number, error: OAuthErrorCode, description: string, basic = false): void {
  if (status === 401) res.setHeader('WWW-Authenticate', basic ? 'Basic realm="pix-sandbox"' : 'Bearer realm="pix-sandbox"');
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error, error_description: description });
}

function basicCredentials(req: Request): { id: string; secret: string } | null | 'malformed' {
  const header = req.get('authorization');
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep < 0) return 'malformed';
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before joining
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: dec(decoded.slice(0, sep)), secret: dec(decoded.slice(sep + 1)) };
  } catch {
    return 'malformed';
  }
}

// A body that cannot be read is still answered as RFC 6749 says (invalid_request), since OAuth
// libraries parse only that shape from the token endpoint.
const tokenBody: RequestHandler = (req, res, next) =>
  parseBody(true)(req, res, (err?: unknown) => {
    if (!err) return next();
    const e = err as { type?: string; message?: string; code?: string };
    const why =
      e.type === 'entity.parse.failed'
        ? 'the request body is not valid JSON'
        : e.type === 'entity.too.large'
          ? 'the request body is larger than 1 MiB'
          : e.code === 'UNSUPPORTED_MEDIA_TYPE'
            ? (e.message ?? 'unsupported body')
            : 'the request body could not be read';
    oauthError(res, 400, 'invalid_request', why);
  });

export const oauthOperations = [
  route({
    method: 'post',
    path: '/v1/oauth/token',
    tag: 'OAuth',
    auth: 'client',
    summary: 'Issue an access token (client_credentials; JSON or form body, or HTTP Basic)',
    // documents the body and has it precompiled; the handler reads the fields itself, answering RFC 6749 errors
    body: tokenRequestSchema,
    bodyOptional: true,
    parser: tokenBody,
    responses: {
      200: {
        ...ok(R.tokenResponseSchema, 'A bearer token valid 300 seconds (by the sandbox clock)'),
        headers: { ...noStore, Pragma: header('For HTTP/1.0 caches (RFC 6749 §5.1)', { const: 'no-cache' }) },
      },
      400: {
        schema: R.oauthErrorSchema,
        description: 'RFC 6749 §5.2: invalid_request, unsupported_grant_type, unauthorized_client (merchant not ACTIVE)',
        headers: noStore,
      },
      401: {
        schema: R.oauthErrorSchema,
        description: 'RFC 6749 §5.2: invalid_client',
        headers: {
          ...noStore,
          'WWW-Authenticate': header('Basic realm="pix-sandbox" when the client authenticated with HTTP Basic, else Bearer realm', {
            type: 'string',
            enum: ['Basic realm="pix-sandbox"', 'Bearer realm="pix-sandbox"'],
          }),
        },
      },
    },
    async handle({ ctx, req, res }) {
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const grantType = str(body.grant_type) ?? (body.grant_type === undefined ? 'client_credentials' : undefined);
      if (grantType === undefined) return oauthError(res, 400, 'invalid_request', 'grant_type must be a string');
      if (grantType !== 'client_credentials')
        return oauthError(
          res,
          400,
          'unsupported_grant_type',
          `grant_type "${grantType.slice(0, 40)}" is not supported; use client_credentials`,
        );
      const basic = basicCredentials(req);
      if (basic === 'malformed') return oauthError(res, 400, 'invalid_request', 'the Basic Authorization header is malformed');
      const bodyId = str(body.client_id);
      const bodySecret = str(body.client_secret);
      if (basic && (bodyId !== undefined || bodySecret !== undefined))
        return oauthError(
          res,
          400,
          'invalid_request',
          'send client credentials either in the Authorization header or in the body, not both',
        );
      const id = basic?.id ?? bodyId;
      const secret = basic?.secret ?? bodySecret;
      if (!id || !secret) return oauthError(res, 401, 'invalid_client', 'client_id and client_secret are required', !!basic);

      const account = ctx.store.accounts.findOne('byClientId', id);
      const principal = account ?? ctx.store.merchants.findOne('byClientId', id);
      // an unknown client_id costs the same hashing as a wrong secret (docs/decisions.md#d70-the-token-endpoint-takes-as-long-for-any-client_id)
      if (!(await verifySecret(secret, principal?.secretHash)) || !principal)
        return oauthError(res, 401, 'invalid_client', 'client authentication failed (unknown client_id or wrong client_secret)', !!basic);
      // read again after the wait: the merchant may have changed (or gone) meanwhile
      const merchant = account ? undefined : ctx.store.merchants.get(principal.id);
      if (!account && !merchant)
        return oauthError(res, 401, 'invalid_client', 'client authentication failed (unknown client_id or wrong client_secret)', !!basic);
      if (merchant && merchant.status !== 'ACTIVE')
        return oauthError(res, 400, 'unauthorized_client', `the merchant is ${merchant.status} and cannot obtain tokens`);

      const token = signToken(ctx, {
        clientId: id,
        accountId: merchant ? merchant.accountId : principal.id,
        merchantId: merchant ? merchant.id : null,
        generation: principal.tokenGeneration ?? 0, // as verified: a principal made again meanwhile refuses this token
      });
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      res.status(200).json({ access_token: token, token_type: 'bearer', expires_in: TOKEN_TTL_SECONDS });
    },
  }),
];
