// POST /v1/oauth/token (docs/decisions.md#d5-the-token-endpoint-speaks-oauth-20): JSON or form bodies, credentials in the body or in HTTP
// Basic, errors exactly as RFC 6749 §5.2 so that stock OAuth 2.0 clients parse them. The grant itself
// is services/tokens.ts issueToken.
import type { RequestHandler, Response } from 'express';
import { basicCredentials } from '../http/auth.js';
import { parseBody } from '../http/body.js';
import { redactText } from '../http/redact.js';
import { route } from '../http/operations.js';
import { header, noStore, ok } from '../schemas/operation.js';
import { tokenRequestSchema } from '../schemas/public.js';
import * as R from '../schemas/responses.js';
import { issueToken } from '../services/tokens.js';
import type { OAuthErrorCode } from '../store/model.js';

function oauthError(res: Response, status: number, error: OAuthErrorCode, description: string, basic = false): void {
  if (status === 401) res.setHeader('WWW-Authenticate', basic ? 'Basic realm="pix-sandbox"' : 'Bearer realm="pix-sandbox"');
  res.setHeader('Cache-Control', 'no-store');
  // a description may quote what was sent (grant_type): no secret in it is said back (src/http/redact.ts)
  res.status(status).json({ error, error_description: redactText(description) });
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
    // the rate limiter's 429 in RFC 6749's shape too, which OAuth libraries read (docs/decisions.md#d81-the-token-endpoints-429)
    tooManyRequests: (res, message) => oauthError(res, 429, 'temporarily_unavailable', message),
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
      429: {
        schema: { anyOf: [R.oauthErrorSchema, R.tooManyRequestsSchema] },
        description:
          "RFC 6749 temporarily_unavailable: the client's token requests are over its tenant's rateLimit (the wait in Retry-After and in error_description); or an injected fault's error",
        headers: noStore,
      },
    },
    async handle({ ctx, req, res }) {
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const answer = await issueToken(ctx, {
        grantType: body.grant_type,
        clientId: body.client_id,
        clientSecret: body.client_secret,
        basic: basicCredentials(req.get('authorization')),
      });
      if (!answer.ok) return oauthError(res, answer.status, answer.error, answer.description, answer.basic);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      res.status(200).json({ access_token: answer.accessToken, token_type: 'bearer', expires_in: answer.expiresIn });
    },
  }),
];
