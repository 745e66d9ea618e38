// A thin registry over an express Router that remembers which methods each path has, so that
// a known path with another method answers 405 with an Allow header instead of 404.
import express, { type Request, type RequestHandler, type Router } from 'express';
import { SandboxError } from '../domain/errors.js';
import { UUID_PATTERN } from '../schemas/helpers.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface Routes {
  router: Router;
  get(path: string, ...handlers: RequestHandler[]): void;
  post(path: string, ...handlers: RequestHandler[]): void;
  patch(path: string, ...handlers: RequestHandler[]): void;
  put(path: string, ...handlers: RequestHandler[]): void;
  delete(path: string, ...handlers: RequestHandler[]): void;
  /** registers the 405 answers; call once, after every route */
  finish(): void;
}

export function createRoutes(): Routes {
  const router = express.Router({ strict: false, caseSensitive: true });
  const methods = new Map<string, Set<string>>();
  const add =
    (method: Method) =>
    (path: string, ...handlers: RequestHandler[]) => {
      router[method](path, ...handlers);
      const set = methods.get(path) ?? new Set<string>();
      set.add(method.toUpperCase());
      if (method === 'get') set.add('HEAD');
      methods.set(path, set);
    };
  return {
    router,
    get: add('get'),
    post: add('post'),
    patch: add('patch'),
    put: add('put'),
    delete: add('delete'),
    finish() {
      // a literal path's 405 before a parameter's (/_sandbox/webhooks/send before /_sandbox/webhooks/:id),
      // whatever the order the routes came in: the literal is never taken for a parameter here either
      const params = (path: string) => path.split('/:').length;
      for (const [path, set] of [...methods].sort(([a], [b]) => params(a) - params(b))) {
        router.all(path, (req, res, next) => {
          if (req.method === 'OPTIONS') {
            res.setHeader('Allow', [...set, 'OPTIONS'].join(', '));
            return res.status(204).end();
          }
          res.setHeader('Allow', [...set].join(', '));
          next(new SandboxError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; allowed: ${[...set].join(', ')}`));
        });
      }
    },
  };
}

const uuid = new RegExp(UUID_PATTERN);

/** A path parameter that must be a UUID (docs/decisions.md#d12-ids-in-paths: 400, not 404, when it is not). */
export function uuidParam(req: Request, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string' || !uuid.test(value))
    throw new SandboxError('VALIDATION_ERROR', `${name} must be a UUID`, [{ path: `/params/${name}`, message: 'must be a UUID' }]);
  return value.toLowerCase();
}
