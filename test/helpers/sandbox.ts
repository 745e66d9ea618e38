// Starts a real sandbox (the express app on an ephemeral port, a real lowdb file in a temp
// folder or memory) and gives tests a small HTTP client for it, on the package's own transport.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transport } from '../../src/client/transport.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { boot, type Running } from '../../src/server.js';
import { enforceDocumented } from './openapi-check.js';

export const DEFAULT_ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';
export const DEFAULT_CLIENT = { client_id: 'sandbox-client', client_secret: 'sandbox-secret' };

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestSandbox {
  url: string;
  running: Running;
  dataDir: string | null;
  request<T = any>(
    method: string,
    p: string,
    opts?: { body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string },
  ): Promise<HttpResult<T>>;
  token(creds?: { client_id: string; client_secret: string }): Promise<string>;
  stop(): Promise<void>;
}

export async function startTestSandbox(overrides: Partial<Config> & { file?: boolean } = {}): Promise<TestSandbox> {
  const { file = false, ...rest } = overrides;
  // a given dataDir is reused (restart tests) and left in place by stop()
  const dataDir = file ? (rest.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-test-')))) : null;
  const config = defaultConfig({
    port: 0,
    httpsPort: null,
    memory: !file,
    dataDir: dataDir ?? '.',
    fsync: false,
    tick: false,
    quiet: true,
    ...rest,
  });
  const running = await boot(config);
  const url = running.listeners[0]!.url;
  const transport = new Transport({ baseUrl: url });
  const request: TestSandbox['request'] = async (method, p, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const body = opts.raw !== undefined ? { raw: opts.raw } : opts.body !== undefined ? { body: opts.body } : {};
    const res = await transport.request(method, p, { headers, ...body });
    const resHeaders = new Headers(res.headers);
    // every answer a test sees must be one /openapi.json documents (see openapi-check.ts)
    enforceDocumented({ method, url: p, status: res.status, headers: resHeaders, body: res.body, text: res.text });
    return { status: res.status, headers: resHeaders, body: res.body as any, text: res.text };
  };
  return {
    url,
    running,
    dataDir,
    request,
    async token(creds = DEFAULT_CLIENT) {
      const r = await request('POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...creds } });
      if (r.status !== 200) throw new Error(`token failed: ${r.status} ${r.text}`);
      return r.body.access_token as string;
    },
    async stop() {
      await running.stop();
      if (dataDir && !overrides.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
