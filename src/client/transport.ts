// The one HTTP transport of everything that calls a sandbox: the programmatic clients, the CLI's
// commands, the scenario runner and the test helpers. node:http/https rather than fetch, so that a
// caller can trust the sandbox's self-signed certificate per client (`ca`) without touching
// process-wide settings such as NODE_EXTRA_CA_CERTS (which node:https honours as well).
import http from 'node:http';
import { httpsModule } from '../lazy-builtins.js';
import type { errorDetailSchema } from '../schemas/error-responses.js';
import type { Wire } from '../schemas/from-schema.js';

export interface TransportOptions {
  /** scheme://host:port of the sandbox */
  baseUrl: string;
  /** PEM certificate(s) to trust for an https baseUrl (the sandbox's generated certificate) */
  ca?: string | string[];
  /** headers sent with every request (e.g. x-sandbox-admin-token) */
  headers?: Record<string, string>;
  /** how long a request may go without an answer; default 30 s */
  timeoutMs?: number;
}

export interface RawResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** parsed JSON (when the answer says it is JSON), the text otherwise, undefined when empty */
  body: T;
  /** the body as it came */
  text: string;
}

/** What was sent, as sent (header names in lower case): the scenario runner reports it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Exchange<T = unknown> {
  request: SentRequest;
  response: RawResponse<T>;
  durationMs: number;
}

/** The sandbox could not be reached, or did not answer in time. `code` is the system's (ECONNREFUSED, ETIMEDOUT, …). */
export class NetworkError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined, cause?: unknown) {
    super(message, { cause });
    this.name = 'NetworkError';
    this.code = code;
  }
}

/** One problem of a 4xx answer (docs/api.md#errors): the field's JSON pointer and what is wrong with it. */
export type ErrorDetail = Wire<typeof errorDetailSchema>;

/**
 * A non-2xx answer. `code` is the error's `error.code` (docs/api.md#errors), or the OAuth `error` of the
 * token endpoint; `reason` is the sandbox's own message (or "HTTP <status>" when it gave none).
 */
export class SandboxApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly reason: string;
  readonly details: ErrorDetail[];
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(method: string, path: string, res: Pick<RawResponse, 'status' | 'headers' | 'body'>) {
    const b = res.body as { message?: unknown; error?: unknown; error_description?: unknown } | undefined;
    const nested = typeof b?.error === 'object' && b.error !== null ? (b.error as { code?: unknown; details?: unknown }) : null;
    const code = typeof b?.error === 'string' ? b.error : typeof nested?.code === 'string' ? nested.code : null;
    const given = typeof b?.message === 'string' ? b.message : typeof b?.error_description === 'string' ? b.error_description : '';
    super(`${method} ${path} answered ${res.status}${code ? ` ${code}` : ''}${given ? `: ${given}` : ''}`);
    this.name = 'SandboxApiError';
    this.status = res.status;
    this.code = code;
    this.reason = given || `HTTP ${res.status}`;
    this.details = Array.isArray(nested?.details) ? (nested.details as ErrorDetail[]) : [];
    this.body = res.body;
    this.headers = res.headers;
  }
}

export interface RequestOptions {
  body?: unknown;
  /** a body sent as is (form bodies, invalid JSON on purpose) */
  raw?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;

function parse(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (!/json/i.test(contentType ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function networkError(e: unknown, origin: string): NetworkError {
  if (e instanceof NetworkError) return e;
  const err = e as NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] };
  // a host name with IPv4 and IPv6 addresses fails with an AggregateError of both
  const code = err.code ?? err.errors?.[0]?.code;
  return new NetworkError(`cannot reach ${origin} (${code ?? err.message})`, code, e);
}

export class Transport {
  readonly baseUrl: string;
  constructor(private readonly opts: TransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }

  /** One exchange, whatever its status, with what was sent; a NetworkError when there is no answer. */
  exchange<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<Exchange<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [k, v] of Object.entries({ ...this.opts.headers, ...o.headers })) headers[k.toLowerCase()] = v;
    let payload: string | undefined = o.raw;
    if (payload === undefined && o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    const request: SentRequest = { method: method.toUpperCase(), url: url.href, headers };
    if (o.raw !== undefined || o.body !== undefined) request.body = o.raw ?? o.body;
    const secure = url.protocol === 'https:';
    const send = secure ? httpsModule().request : http.request;
    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const fail = (e: unknown) => reject(networkError(e, url.origin));
      const req = send(
        url,
        {
          method: request.method,
          headers,
          timeout: timeoutMs,
          ...(secure && this.opts.ca ? { ca: this.opts.ca } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', fail);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const h: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
            const response = { status: res.statusCode ?? 0, headers: h, body: parse(text, res.headers['content-type']) as T, text };
            resolve({ request, response, durationMs: Math.round(performance.now() - started) });
          });
        },
      );
      req.on('timeout', () =>
        req.destroy(
          new NetworkError(`no answer from ${url.origin} within ${timeoutMs / 1000} s (${request.method} ${url.pathname})`, 'ETIMEDOUT'),
        ),
      );
      req.on('error', fail);
      req.end(payload);
    });
  }

  /** One exchange, whatever its status. */
  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<RawResponse<T>> {
    return (await this.exchange<T>(method, path, o)).response;
  }

  /** One exchange; the body of a 2xx answer, or a SandboxApiError. */
  async call<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const res = await this.request<T>(method, path, o);
    if (res.status < 200 || res.status >= 300) throw new SandboxApiError(method, path, res);
    return res.body;
  }
}

/** A path segment from a value (an id, a PIX key): encoded, so that it stays one segment. */
export const seg = (s: string): string => encodeURIComponent(s);
