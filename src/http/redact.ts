// What the sandbox never shows of what a client sent (docs/control-api.md#request-journal): one rule
// for the request journal, for error messages that quote a request (a path, a URL: src/http/errors.ts)
// and for the log lines that name one. A value is secret by its name, wherever the name is a field of
// JSON, a form or query key (brackets and all: `client_secret[]`, `a[client_secret]`) or a header, or by
// its shape: a JWT, whole or inside a longer string ("Bearer eyJ…", "token=eyJ…").

export const REDACTED = '[REDACTED]';

/**
 * The ends of a secret name, once lower-cased and stripped of everything but letters and digits:
 * client_secret, x-api-key, access_token, refresh_token, id_token, x-sandbox-admin-token, password,
 * Authorization, Cookie, Set-Cookie, pin, cvv… (`token_type`, `pixKey` and `expires_in` are not secrets).
 */
const SECRET_NAME = /(secret|password|passwd|token|apikey|authorization|cookie|pin|cvv|cvc)$/;

/** Whether a field, key or header names a secret: any of its bracket segments does (`a[client_secret]`, `client_secret[0]`). */
export function isSecretName(name: string): boolean {
  for (const segment of name.split(/[[\]]/)) if (SECRET_NAME.test(segment.toLowerCase().replace(/[^a-z0-9]/g, ''))) return true;
  return false;
}

// Anchored at the start of a run of its characters (the lookbehinds), so that a long run without the
// rest of the shape costs one pass, not one per position.
const JWT_IN_TEXT = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
// a value runs to the next separator of a query string or blank: more than the secret at worst, never less
const PAIR_IN_TEXT = /(?<![\w.%[\]-])([\w.%[\]-]+)=([^\s&#]*)/g;

function decoded(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * A text with its JWTs and its secret-named `name=value` pairs redacted: free text, or a path and query
 * string as the journal and the log show them (some clients put credentials in the query, a token in the path).
 */
export function redactText(text: string): string {
  let out = text;
  if (out.includes('.')) out = out.replace(JWT_IN_TEXT, REDACTED);
  if (out.includes('='))
    out = out.replace(PAIR_IN_TEXT, (pair, name: string) => (isSecretName(decoded(name)) ? `${name}=${REDACTED}` : pair));
  return out;
}

/** A header value keeps its scheme ("Bearer", "Basic") so the journal still shows how a client authenticated. */
function redactValue(key: string, value: unknown): unknown {
  if (typeof value === 'string' && (key === 'authorization' || key === 'proxy-authorization')) {
    const scheme = /^(\w+)\s/.exec(value);
    return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
  }
  return REDACTED;
}

const MAX_STRING = 512;
/** Values kept per redacted copy, so that an entry stays small whatever a client sends (a 1 MiB body of 50,000 keys). */
const MAX_NODES = 500;

/** A deep copy with secrets replaced, long strings (QR images) shortened, and at most MAX_NODES values. */
export function redact(value: unknown, depth = 0, budget = { left: MAX_NODES }): unknown {
  budget.left--;
  if (typeof value === 'string') {
    // shortened after its secrets are gone, so that no cut leaves a JWT too short to be recognised
    const text = redactText(value);
    return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length} characters)` : text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20 || budget.left < 0) return '…';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => (budget.left > 0 ? redact(v, depth + 1, budget) : '…'));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    if (budget.left <= 0) {
      out['…'] = 'further fields left out';
      break;
    }
    const v = (value as Record<string, unknown>)[k];
    const kept = isSecretName(k) ? redactValue(k.toLowerCase(), v) : redact(v, depth + 1, budget);
    // a key is text too (a form key can hold anything); defined, not assigned: a "__proto__" key stays a plain field of the copy
    const key = redactText(k);
    Object.defineProperty(out, key.length > MAX_STRING ? `${key.slice(0, MAX_STRING)}…` : key, {
      value: kept,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
