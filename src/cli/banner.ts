// The lines `serve` prints once the sandbox is ready: every URL a user or a tool needs, then the
// default account's credentials and where the data lives. Scripts read the first ones
// ("listening on <url>", one per listener), so those keep their shape.
import type { Config } from '../config.js';
import { UI_PATH } from '../control/ui.js';
import type { Running } from '../server.js';
import { defaultAccount } from '../services/accounts.js';

export function startupLines(running: Running, config: Config): string[] {
  const http = running.listeners.find((l) => l.url.startsWith('http:'))!.url;
  const https = running.listeners.find((l) => l.url.startsWith('https:'))?.url ?? null;
  const lines = running.listeners.map((l) => `listening on ${l.url}`);
  // with --require-https plain HTTP serves the control API and the dashboard, not the API
  lines.push(`  API:          ${config.requireHttps && https ? `${https}/v1 (plain HTTP refused: --require-https)` : `${http}/v1`}`);
  lines.push(`  HTTPS:        ${https ? `${https}/v1` : 'off (--https-port <port> turns it on)'}`);
  lines.push(`  dashboard:    ${http}${UI_PATH}`);
  lines.push(`  OpenAPI:      ${http}/openapi.json`);
  lines.push(`  control API:  ${http}/_sandbox (readiness: ${http}/_sandbox/health)`);
  const account = defaultAccount(running.ctx.store);
  if (account) {
    const secret = config.clientSecret ?? (config.clientId ? '(configured)' : 'sandbox-secret');
    lines.push(`default account: client_id=${account.clientId} client_secret=${secret}`);
  }
  lines.push(`data file: ${running.dataFile ?? '(in memory)'}`);
  lines.push(...(running.notes ?? []));
  return lines;
}
