// A small HTTP client for a running sandbox: the control API (docs/control-api.md) for the CLI
// commands, and plain exchanges (request + response, kept for reports) for the scenario runner.

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
const TIMEOUT_MS = 15_000;

export interface HttpRequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface HttpResponseRecord {
  status: number;
  headers: Record<string, string>;
  /** parsed JSON, or the text when the body is not JSON */
  body: unknown;
}

export interface HttpExchange {
  request: HttpRequestRecord;
  response: HttpResponseRecord;
  durationMs: number;
}

/** The sandbox could not be reached at all (refused, timed out, DNS). */
export class NetworkError extends Error {}

/** A control call answered with an error status; `message` is the error answer's message (docs/api.md). */
export class CallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export async function send(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown; rawBody?: string; timeoutMs?: number } = {},
): Promise<HttpExchange> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = String(v);
  let payload: string | undefined;
  if (opts.rawBody !== undefined) payload = opts.rawBody;
  else if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const request: HttpRequestRecord = {
    method: method.toUpperCase(),
    url,
    headers,
    ...(opts.body !== undefined || opts.rawBody !== undefined ? { body: opts.body ?? opts.rawBody } : {}),
  };
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, { method: request.method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new NetworkError(`cannot reach ${new URL(url).origin} (${why})`);
  }
  const text = await res.text();
  let body: unknown = text;
  if (text && (res.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      /* keep the text */
    }
  } else if (!text) body = undefined;
  const resHeaders: Record<string, string> = {};
  res.headers.forEach((v, k) => (resHeaders[k] = v));
  return { request, response: { status: res.status, headers: resHeaders, body }, durationMs: Math.round(performance.now() - started) };
}

/** The error of a failed call as the sandbox worded it (docs/api.md), or the status line. */
export function errorOf(ex: HttpExchange): CallError {
  const b = ex.response.body as { message?: unknown; error?: unknown; error_description?: unknown } | undefined;
  const code =
    typeof b?.error === 'object' && b.error
      ? (typeof (b.error as { code?: unknown }).code === 'string' ? (b.error as { code: string }).code : null) || null
      : typeof b?.error === 'string'
        ? b.error
        : null;
  const message =
    typeof b?.message === 'string'
      ? b.message
      : typeof b?.error_description === 'string'
        ? b.error_description
        : `HTTP ${ex.response.status}`;
  return new CallError(ex.response.status, code, message, b);
}

export class ControlClient {
  readonly baseUrl: string;
  constructor(
    baseUrl: string,
    readonly adminToken: string | null = null,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  adminHeaders(): Record<string, string> {
    return this.adminToken ? { 'x-sandbox-admin-token': this.adminToken } : {};
  }

  /** One control call; the exchange whatever the status. */
  exchange(method: string, path: string, body?: unknown): Promise<HttpExchange> {
    return send(method, this.baseUrl + path, { headers: this.adminHeaders(), body });
  }

  /** One control call; the answer's body, or a CallError for a non-2xx status. */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const ex = await this.exchange(method, path, body);
    if (ex.response.status >= 300) throw errorOf(ex);
    return ex.response.body as T;
  }
}

export const seg = (s: string): string => encodeURIComponent(s);
