// The live state of one scenario run: its tenant, principals and their tokens, saved values, its
// webhook inbox, and what to clean up afterwards.
import type { ControlClient } from '../client/control-client.js';
import { SandboxApiError, type Transport } from '../client/transport.js';
import { seededRandom } from '../domain/random.js';
import type { Mismatch } from './matcher.js';
import type { Inbox } from './receiver.js';
import { reportable, type HttpExchange } from './result.js';

export interface RunEnv {
  /** control calls (its transport carries the admin token) */
  client: ControlClient;
  /** calls made as a principal, or as nobody */
  api: Transport;
  /** default bound of expectWebhook, in ms */
  webhookTimeoutMs: number;
}

export interface Credentials {
  client_id: string;
  client_secret: string;
}

export class StepError extends Error {
  constructor(
    message: string,
    readonly exchange?: HttpExchange,
    readonly mismatches?: Mismatch[],
  ) {
    super(message);
  }
}

export class ScenarioState {
  /** interpolation scope: vars, account, scenario and every saved result */
  readonly scope: Record<string, unknown> = {};
  /** "account" and merchant save names → credentials */
  readonly principals = new Map<string, Credentials>();
  private tokens = new Map<string, string>();
  inbox: Inbox | null = null;
  /** the scenario's webhook endpoint (its receiver's inbox), once registered */
  endpointId: string | null = null;
  /** control calls that remove what the run arranged (its keys, rules, faults, the webhook endpoint) */
  readonly cleanup: { method: string; path: string }[] = [];

  /** generated data (merchant documents, names): derived from the run id, which the report shows */
  readonly random: () => number;

  constructor(
    readonly env: RunEnv,
    readonly runId: string,
  ) {
    this.random = seededRandom(runId);
  }

  /** A bearer token for the principal, fetched once and reused (`fresh` asks for a new one). */
  async token(principal: string, fresh = false): Promise<string> {
    const cached = this.tokens.get(principal);
    if (cached && !fresh) return cached;
    const creds = this.principals.get(principal);
    if (!creds) throw new StepError(`no credentials for ${principal}: save the merchant first (save: <name>, then as: merchant:<name>)`);
    const ex = await this.env.api.exchange('POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...creds } });
    if (ex.response.status !== 200) {
      const why = new SandboxApiError('POST', '/v1/oauth/token', ex.response).reason;
      throw new StepError(`could not obtain a token for ${principal}: ${why}`, reportable(ex));
    }
    const token = (ex.response.body as { access_token: string }).access_token;
    this.tokens.set(principal, token);
    return token;
  }

  /** Remembers a step's result under its save name; merchant credentials become a principal. */
  save(name: string, value: { status?: number; headers?: Record<string, string>; body?: unknown }): void {
    this.scope[name] = value;
    const creds = (value.body as { data?: { credentials?: Partial<Credentials> } } | undefined)?.data?.credentials;
    if (creds?.client_id && creds.client_secret) {
      this.principals.set(`merchant:${name}`, { client_id: creds.client_id, client_secret: creds.client_secret });
      this.tokens.delete(`merchant:${name}`);
    }
  }
}
