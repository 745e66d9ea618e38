// The single error shape (docs/decisions.md#d8-one-error-shape), and the last handlers of the pipeline.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { BUSY_RETRY_AFTER_SECONDS, SandboxError, type ErrorDetail } from '../domain/errors.js';
import { redactText } from './redact.js';

export function sendError(res: Response, err: SandboxError): void {
  if (res.headersSent) return;
  // a message may quote the request (its path, its URL with the query): what the journal redacts, no answer shows
  const message = redactText(err.message);
  if (err.code === 'UNAUTHORIZED' || err.code === 'INVALID_TOKEN' || err.code === 'TOKEN_EXPIRED') {
    // a header holds printable ASCII only: anything else in a message would make the answer fail
    const desc =
      err.code === 'UNAUTHORIZED'
        ? ''
        : `, error="invalid_token", error_description="${message.replace(/"/g, "'").replace(/[^\x20-\x7e]/g, '?')}"`;
    res.setHeader('WWW-Authenticate', `Bearer realm="pix-sandbox"${desc}`);
  }
  // the image decoders are full (src/control/qr-image.ts): the one 503 the sandbox answers of itself
  if (err.code === 'BUSY') res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
  res.status(err.status).json({
    statusCode: err.status,
    message,
    error: {
      code: err.code,
      details: err.details.map((d) => ({ path: redactText(d.path), message: redactText(d.message) })) satisfies ErrorDetail[],
    },
  });
}

export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, new SandboxError('NOT_FOUND', `no route for ${req.method} ${req.path}`));
};

/** Maps body-parser failures and anything unexpected; never leaks a stack trace. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (err instanceof SandboxError) return sendError(res, err);
  const e = err as { type?: string; status?: number; message?: string; limit?: number };
  if (e.type === 'entity.parse.failed') return sendError(res, new SandboxError('INVALID_JSON', 'the request body is not valid JSON'));
  if (e.type === 'entity.too.large')
    return sendError(
      res,
      new SandboxError('PAYLOAD_TOO_LARGE', `the request body is larger than ${(e.limit ?? 1024 * 1024) / (1024 * 1024)} MiB`),
    );
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported')
    return sendError(res, new SandboxError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be UTF-8 JSON'));
  if (e.type === 'request.aborted' || e.type === 'request.size.invalid' || e.type === 'stream.encoding.set')
    return sendError(res, new SandboxError('INVALID_JSON', 'the request body could not be read'));
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
    return sendError(res, new SandboxError('VALIDATION_ERROR', 'the request could not be read', [], e.status));
  console.error(`[pix-sandbox] unexpected error on ${req.method} ${redactText(req.originalUrl)}:`, err);
  sendError(res, new SandboxError('INTERNAL_ERROR', 'an unexpected error occurred; see the sandbox log'));
};
