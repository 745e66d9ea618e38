import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Every response carries x-request-id, echoed from the request when it is a sane value. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && SAFE_ID.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  next();
};
