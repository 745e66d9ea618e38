// Body parsing: JSON up to 1 MiB (the token endpoint also takes RFC 6749 form bodies),
// 415 for any other media type, and validation that names ignored fields.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { SandboxError } from '../domain/errors.js';
import { unknownFields, validateBody } from '../schemas/validator.js';

const LIMIT = '1mb';
const json = express.json({ limit: LIMIT, strict: true, type: () => true });
const form = express.urlencoded({ limit: LIMIT, extended: false, parameterLimit: 100 });

const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** Parses JSON bodies; `allowForm` also accepts application/x-www-form-urlencoded. */
export function parseBody(allowForm = false): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req)) {
      req.body = {};
      return next();
    }
    if (req.is('application/json') || req.is('application/*+json')) return json(req, res, next);
    if (allowForm && req.is('application/x-www-form-urlencoded')) return form(req, res, next);
    const accepted = allowForm ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
    next(new SandboxError('UNSUPPORTED_MEDIA_TYPE', `the request body must be ${accepted} (got ${req.get('content-type') ?? 'no Content-Type'})`));
  };
}

/** Validates `req.body` against `schema`; unknown fields are ignored and named in x-sandbox-warnings. */
export function readBody<T>(req: Request, res: Response, schema: Record<string, unknown>): T {
  const body: unknown = req.body ?? {};
  const value = validateBody<T>(schema, body);
  const unknown = unknownFields(schema, body);
  if (unknown.length > 0) res.setHeader('x-sandbox-warnings', `ignored unknown fields: ${unknown.slice(0, 20).join(', ')}`);
  return value;
}
