// The page's only way to the sandbox: its control API on the same origin, with the admin token
// (kept for this browser tab only, in sessionStorage) as a header when one is configured.
const TOKEN_KEY = 'pix-sandbox.adminToken';

export const getToken = () => sessionStorage.getItem(TOKEN_KEY) ?? '';

/** @param {string} value */
export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** @typedef {{ path?: string, message: string }} ErrorDetail */

/** An answer outside 2xx, in the sandbox's error shape (docs/decisions.md#d8-one-error-shape) when it has one. */
export class ApiError extends Error {
  /**
   * @param {number} status 0: no answer at all
   * @param {unknown} body
   */
  constructor(status, body) {
    const b = /** @type {{ message?: unknown, error?: { code?: string, details?: unknown } } | null} */ (
      body !== null && typeof body === 'object' ? body : null
    );
    super(typeof b?.message === 'string' ? b.message : `HTTP ${status}`);
    this.status = status;
    this.code = b?.error?.code ?? null;
    this.details = /** @type {ErrorDetail[]} */ (Array.isArray(b?.error?.details) ? b.error.details : []);
  }

  /** "VALIDATION_ERROR: amount must be … (/amount: must be integer)" */
  describe() {
    const more = this.details.map((d) => `${d.path || '/'}: ${d.message}`).join('; ');
    return `${this.code ? `${this.code}: ` : ''}${this.message}${more ? ` (${more})` : ''}`;
  }

  /** The sandbox wants an admin token that the page does not have (or has wrong). */
  get isAuth() {
    return this.status === 401 || (this.status === 403 && this.code !== 'HTTPS_REQUIRED');
  }
}

/** @type {Set<(error: ApiError | null) => void>} */
const listeners = new Set();
/**
 * Calls fn(error|null) after every request: the page shows connection and token problems.
 * @param {(error: ApiError | null) => void} fn
 */
export const onResult = (fn) => listeners.add(fn);
/** @param {ApiError | null} error */
export const report = (error) => listeners.forEach((fn) => fn(error));

/** The headers of every call: JSON, and the admin token when there is one. */
export function headers() {
  /** @type {Record<string, string>} */
  const out = { accept: 'application/json' };
  const token = getToken();
  if (token) out['x-sandbox-admin-token'] = token;
  return out;
}

/**
 * Parses an answer; an answer outside 2xx throws its ApiError (reported to onResult's listeners).
 * @param {Response} res
 */
export async function answerOf(res) {
  const text = await res.text();
  /** @type {unknown} */
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const err = new ApiError(res.status, parsed);
    report(err);
    throw err;
  }
  report(null);
  return parsed;
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function call(method, path, body) {
  const h = headers();
  if (body !== undefined) h['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    const err = new ApiError(0, { message: 'the sandbox cannot be reached' });
    report(err);
    throw err;
  }
  return { body: await answerOf(res), res };
}

/**
 * One call; resolves with the answer's JSON, typed as the caller says (src/ names the shapes: server-types.d.ts).
 * @template [T=unknown]
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
export async function api(method, path, body) {
  return /** @type {T} */ ((await call(method, path, body)).body);
}

/**
 * One page of a control list (docs/store.md): the items, and the cursor of the next page that the
 * sandbox gives in the x-sandbox-next-cursor header (null on the last page).
 * @template T
 * @param {string} path
 * @returns {Promise<{ items: T[], next: string | null }>}
 */
export async function apiPage(path) {
  const { body, res } = await call('GET', path);
  return { items: /** @type {T[]} */ (body), next: res.headers.get('x-sandbox-next-cursor') };
}

/**
 * Builds a query string from the non-empty values.
 * @param {Record<string, string | number | null | undefined>} params
 */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
