// Where a webhook may go (docs/webhooks.md#endpoints): one URL rule for every way an endpoint is made
// (the control API, fixture files and inline fixtures, --webhook-url).

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Why `url` cannot be a webhook endpoint's URL (http or https, a host, a port from 1 to 65535), or null when it can. */
export function webhookUrlProblem(url: string): string | null {
  if (url.length > WEBHOOK_URL_MAX_LENGTH) return `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters long`;
  let parsed: URL;
  try {
    parsed = new URL(url); // refuses a port above 65535 and a special scheme without a host
  } catch {
    return 'must be an absolute http:// or https:// URL with a host and a valid port';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (parsed.hostname === '') return 'must name a host';
  if (parsed.port === '0') return 'must name a port from 1 to 65535';
  return null;
}
