// The page's only way to the sandbox: its control API (and public API) on the same origin, with
// the admin token (kept for this browser tab only, in sessionStorage) when one is configured.
const TOKEN_KEY = 'pix-sandbox.adminToken';

export const getToken = () => sessionStorage.getItem(TOKEN_KEY) ?? '';

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** An answer outside 2xx, in the sandbox's error shape (docs/decisions.md#d8-one-error-shape) when it has one. */
export class ApiError extends Error {
  constructor(status, body) {
    const message = body && typeof body === 'object' && typeof body.message === 'string' ? body.message : `HTTP ${status}`;
    super(message);
    this.status = status;
    this.code = body?.error?.code ?? null;
    this.details = Array.isArray(body?.error?.details) ? body.error.details : [];
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

const listeners = new Set();
/** Calls fn(error|null) after every request: the page shows connection and token problems. */
export const onResult = (fn) => listeners.add(fn);

export async function api(method, path, body) {
  return (await call(method, path, body)).body;
}

/**
 * One page of a control list (docs/store.md): the items, and the cursor of the next page that the
 * sandbox gives in the x-sandbox-next-cursor header (null on the last page).
 */
export async function apiPage(path) {
  const { body, res } = await call('GET', path);
  return { items: asList(body), next: res.headers.get('x-sandbox-next-cursor') };
}

async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  const token = getToken();
  if (token) headers['x-sandbox-admin-token'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (e) {
    const err = new ApiError(0, { message: 'the sandbox cannot be reached' });
    for (const fn of listeners) fn(err);
    throw err;
  }
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const err = new ApiError(res.status, parsed);
    for (const fn of listeners) fn(err);
    throw err;
  }
  for (const fn of listeners) fn(null);
  return { body: parsed, res };
}

/** Builds a query string from the non-empty values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Lists answer bare arrays (docs/control-api.md#conventions); tolerate an envelope too. */
export const asList = (body) => (Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : []);
