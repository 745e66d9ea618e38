// Body parsing: JSON up to 1 MiB (a route may raise it) and 32 levels of nesting (the token
// endpoint also takes RFC 6749 form bodies), 415 for any other media type, and validation that
// names ignored fields.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { SandboxError } from '../domain/errors.js';
import type { BodyCheck } from '../schemas/checks.js';
import { unknownFields, validateBody, withoutUnknownFields } from '../schemas/validator.js';
import { noteParsedBody, noteRawBody } from './journal.js';

/** The body limit of every route but those that declare their own (an image to read). */
export const BODY_LIMIT = 1024 * 1024;
// `verify` hands the journal the bytes as read, before they are parsed: so it keeps the body of a
// request whose JSON does not parse too
const capture = (req: Request, res: Response, buf: Buffer) => noteRawBody(res, buf, req.headers['content-type']);
const jsonParser = (limit: number) => express.json({ limit, strict: true, type: () => true, verify: capture });
const form = express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 100, verify: capture });
const raw = express.raw({ limit: BODY_LIMIT, type: () => true, verify: capture });
/** No request of the API nests deeper than a few levels; far deeper JSON would break recursive code (copies, serializers). */
const MAX_BODY_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `max` levels (iterative: the check itself cannot overflow). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

const withDepth =
  (parse: RequestHandler): RequestHandler =>
  (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (nestedDeeperThan(req.body, MAX_BODY_DEPTH))
        return next(
          new SandboxError('VALIDATION_ERROR', `the request body nests objects or arrays more than ${MAX_BODY_DEPTH} levels deep`, [
            { path: '/', message: `must not nest more than ${MAX_BODY_DEPTH} levels deep` },
          ]),
        );
      next();
    });
const json = withDepth(jsonParser(BODY_LIMIT));

export const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** What reading a request's body came to, kept on it: a body is read once, by whichever stage needs it first. */
interface BodyRead {
  err?: unknown;
}
const readOf = (res: Response) => res.locals.bodyRead as BodyRead | undefined;

/**
 * Parses JSON bodies; `allowForm` also accepts application/x-www-form-urlencoded. `limitBytes`
 * raises the JSON limit for the one route that takes an image. A body already read for this request
 * (the tenant of a token request, ./tenant.ts) is not read again: its outcome is replayed.
 */
export function parseBody(allowForm = false, limitBytes = BODY_LIMIT): RequestHandler {
  const parseJson = limitBytes === BODY_LIMIT ? json : withDepth(jsonParser(limitBytes));
  return (req, res, next) => {
    const done = readOf(res);
    if (done) return next(done.err);
    const parsed = (err?: unknown) => {
      res.locals.bodyRead = { err } satisfies BodyRead;
      // the body as the client sent it, before validation fills in defaults: the journal keeps it
      if (!err) noteParsedBody(res, req.body);
      next(err);
    };
    if (!hasBody(req)) {
      req.body = {};
      return parsed();
    }
    if (req.is('application/json') || req.is('application/*+json')) return parseJson(req, res, parsed);
    if (allowForm && req.is('application/x-www-form-urlencoded')) return form(req, res, parsed);
    const accepted = allowForm ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
    parsed(
      new SandboxError(
        'UNSUPPORTED_MEDIA_TYPE',
        `the request body must be ${accepted} (got ${req.get('content-type') ?? 'no Content-Type'})`,
      ),
    );
  };
}

/**
 * Reads a body nothing has read, whatever its type, for the journal only (up to BODY_LIMIT): an
 * injected fault answers before any route reads it, and the journal keeps what the client sent.
 */
export function drainBody(req: Request, res: Response): Promise<void> {
  if (readOf(res) || !hasBody(req)) return Promise.resolve();
  return new Promise((resolve) =>
    raw(req, res, (err?: unknown) => {
      res.locals.bodyRead = {
        err: err ?? new SandboxError('VALIDATION_ERROR', 'the body was read for the journal only'),
      } satisfies BodyRead;
      resolve();
    }),
  );
}

/**
 * Validates `req.body` against `schema` and `check` (every problem of both in one answer); unknown fields are ignored: named in x-sandbox-warnings and
 * left out of the value returned, so that none is ever stored or echoed (req.body keeps them for the journal).
 */
export function readBody<T>(req: Request, res: Response, schema: Record<string, unknown>, check?: BodyCheck): T {
  const body: unknown = req.body ?? {};
  const value = validateBody<T>(schema, body, check);
  const unknown = unknownFields(schema, body);
  if (unknown.length > 0) res.setHeader('x-sandbox-warnings', `ignored unknown fields: ${unknown.slice(0, 20).map(headerSafe).join(', ')}`);
  return (unknown.length > 0 ? withoutUnknownFields(schema, value) : value) as T;
}

/** A field name as header text: anything but printable ASCII escaped (\uXXXX), long names cut, so no name can break the answer. */
function headerSafe(name: string): string {
  const escaped = name.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > 100 ? `${escaped.slice(0, 100)}...(${name.length} characters)` : escaped;
}
