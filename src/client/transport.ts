// The HTTP transport of the programmatic clients: node:http/https rather than fetch, so that a
// test suite can trust the sandbox's self-signed certificate per client (`ca`) without touching
// process-wide settings such as NODE_EXTRA_CA_CERTS.
import http from 'node:http';
import { httpsModule } from '../http/lazy-builtins.js';

export interface TransportOptions {
  /** scheme://host:port of the sandbox */
  baseUrl: string;
  /** PEM certificate(s) to trust for an https baseUrl (the sandbox's generated certificate) */
  ca?: string | string[];
  /** headers sent with every request (e.g. x-sandbox-admin-token) */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface RawResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** parsed JSON, the text when it is not JSON, undefined when empty */
  body: T;
}

/** A non-2xx answer. `code` is CONTRACT §3's `error.code`, or the OAuth `error` of the token endpoint. */
export class SandboxApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(method: string, path: string, res: RawResponse) {
    const b = res.body as { message?: unknown; error?: unknown; error_description?: unknown } | undefined;
    const code =
      typeof b?.error === 'string'
        ? b.error
        : typeof (b?.error as { code?: unknown })?.code === 'string'
          ? (b!.error as { code: string }).code
          : null;
    const why = typeof b?.message === 'string' ? b.message : typeof b?.error_description === 'string' ? b.error_description : '';
    super(`${method} ${path} answered ${res.status}${code ? ` ${code}` : ''}${why ? `: ${why}` : ''}`);
    this.name = 'SandboxApiError';
    this.status = res.status;
    this.code = code;
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
}

export class Transport {
  readonly baseUrl: string;
  constructor(private readonly opts: TransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }

  /** One exchange, whatever its status. */
  request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<RawResponse<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', ...this.opts.headers, ...o.headers };
    let payload: string | undefined = o.raw;
    if (payload === undefined && o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    const secure = url.protocol === 'https:';
    const send = secure ? httpsModule().request : http.request;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        { method, headers, ...(secure && this.opts.ca ? { ca: this.opts.ca } : {}), timeout: this.opts.timeoutMs ?? 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text || undefined;
            if (text && /json/i.test(res.headers['content-type'] ?? '')) {
              try {
                body = JSON.parse(text);
              } catch {
                /* keep the text */
              }
            }
            const h: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({ status: res.statusCode ?? 0, headers: h, body: body as T });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${url.pathname} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** One exchange; the body of a 2xx answer, or a SandboxApiError. */
  async call<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const res = await this.request<T>(method, path, o);
    if (res.status < 200 || res.status >= 300) throw new SandboxApiError(method, path, res);
    return res.body;
  }
}

export const seg = (s: string): string => encodeURIComponent(s);
