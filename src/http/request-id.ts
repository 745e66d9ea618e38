import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { redactText } from './redact.js';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Every response carries x-request-id, echoed from the request when it is a sane value and no secret (a JWT: src/http/redact.ts). */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && SAFE_ID.test(given) && redactText(given) === given ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  next();
};
