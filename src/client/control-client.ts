// The typed client of the control API (docs/control-api.md, /_sandbox/...): what a test suite calls
// to make the sandbox do what the real service never lets you force, and what the CLI's commands and
// the scenario runner call too. Answers are plain JSON (no envelope); a non-2xx answer throws
// SandboxApiError. Shapes come from the sandbox's own formatters and schemas, so they cannot drift
// from what the server sends. Made with a tenant's credentials, it acts within that tenant only
// (docs/control-api.md#self-service-control), with its access token, renewed as a PixClient renews it.
import type {
  AccountCreateBody,
  AccountPatchBody,
  ChargePayBody,
  MerchantStatusBody,
  PixKeyBody,
  RuleCreateBody,
  TransactionListQuery,
  TransferFailBody,
} from '../schemas/control.js';
import type { FaultBody, RequestsQuery, ResetBody, SnapshotSaveBody } from '../schemas/control-sandbox.js';
import type { Fixtures } from '../schemas/fixtures.js';
import type {
  accountSchema,
  clockSchema,
  controlMerchantSchema,
  faultViewSchema,
  healthSchema,
  journalEntrySchema,
  pixKeyViewSchema,
  resetResultSchema,
  ruleViewSchema,
  snapshotSchema,
  transactionDetailSchema,
  transactionSchema,
  walletSchema,
} from '../schemas/control-responses.js';
import type { Wire } from '../schemas/from-schema.js';
import type { auditSchema, reportSchema } from '../schemas/report.js';
import type { DeliveriesQuery, FireInput, WebhookEndpointInput } from '../schemas/webhooks.js';
import type { VerifyBody, VerifySequenceBody, verificationFailedSchema, verificationSchema } from '../schemas/verify.js';
import type { WebhookFaultInput, WebhookSendInput } from '../schemas/webhook-faults.js';
import type {
  deliveryDetailSchema,
  deliverySchema,
  fireResultSchema,
  webhookEndpointSchema,
  webhookEventSchema,
  webhookFaultSchema,
  webhookSendResultSchema,
  webhookSendSchema,
} from '../schemas/webhook-responses.js';
import { PixClient, type Credentials } from './public-client.js';
import { SandboxApiError, Transport, seg, type RawResponse, type RequestOptions, type TransportOptions } from './transport.js';

// Every answer's type is its schema's (src/schemas/control-responses.ts, webhook-responses.ts).
export type Payer = NonNullable<ChargePayBody['payer']>;
export type SandboxAccount = Wire<typeof accountSchema>;
export type SandboxWallet = Wire<typeof walletSchema>;
export type SandboxMerchant = Wire<typeof controlMerchantSchema>;
export type SandboxTransaction = Wire<typeof transactionSchema>;
export type SandboxTransactionDetail = Wire<typeof transactionDetailSchema>;
export type SandboxPixKey = Wire<typeof pixKeyViewSchema>;
export type SandboxRule = Wire<typeof ruleViewSchema>;
export type SandboxFault = Wire<typeof faultViewSchema>;
export type WebhookEndpointView = Wire<typeof webhookEndpointSchema>;
export type WebhookDelivery = Wire<typeof deliverySchema>;
export type WebhookDeliveryDetail = Wire<typeof deliveryDetailSchema>;
export type WebhookEventBody = Wire<typeof webhookEventSchema>;
export type WebhookFaultView = Wire<typeof webhookFaultSchema>;
export type WebhookSendView = Wire<typeof webhookSendSchema>;
/** POST /_sandbox/webhooks/faults (docs/webhooks.md#delivery-faults); `times` defaults to 1 */
export type WebhookFaultBody = Omit<WebhookFaultInput, 'times'> & { times?: number };
/** POST /_sandbox/webhooks/send (docs/webhooks.md#sending-any-body); `signature` defaults to valid */
export type WebhookSendBody = Omit<WebhookSendInput, 'signature'> & { signature?: WebhookSendInput['signature'] };
/** The answer of POST /_sandbox/webhooks/send: the one attempt's status, or its network error, and its duration. */
export type WebhookSendResult = Wire<typeof webhookSendResultSchema>;
/** GET /_sandbox/health: 200 when ready; health() throws a SandboxApiError (503) while starting or stopping. */
export type SandboxHealth = Wire<typeof healthSchema>;
export type SandboxClock = Wire<typeof clockSchema>;
export type JournalEntry = Wire<typeof journalEntrySchema>;
/** GET /_sandbox/report (docs/report.md) */
export type IntegrationReport = Wire<typeof reportSchema>;
export type WebhookAudit = Wire<typeof auditSchema>;
export type ResetResult = Wire<typeof resetResultSchema>;
export type FireResult = Wire<typeof fireResultSchema>;
/** A named snapshot (docs/control-api.md#snapshots). */
export type SandboxSnapshot = Wire<typeof snapshotSchema>;
/** A fixtures document (docs/configuration.md#fixtures): what an export answers, and what --fixtures and reset load. */
export type FixturesDocument = Fixtures;

/** POST /_sandbox/verify (docs/control-api.md#verifying-requests); `within` defaults to 0 */
export type VerifyMatcher = Omit<VerifyBody, 'within'> & { within?: number };
/** One item of POST /_sandbox/verify/sequence: a request matcher and, optionally, its answer's status. */
export type SequenceItem = VerifySequenceBody['requests'][number];
/** A verification that holds: the count matched and their journal seqs (a sequence: one per item). */
export type Verification = Wire<typeof verificationSchema>;
/** The body of a failed verification (422 VERIFICATION_FAILED): a SandboxApiError's `body`, with the count found and the near misses. */
export type VerificationFailure = Wire<typeof verificationFailedSchema>;

export type ControlClientOptions = TransportOptions & {
  /** the x-sandbox-admin-token, when the sandbox was started with one */
  adminToken?: string | null;
  /**
   * Act as one tenant (docs/control-api.md#self-service-control): its account's credentials. Every call
   * then carries its access token (fetched, cached and renewed as PixClient does) and reaches that
   * tenant's records only; calls on the whole sandbox answer 403. No admin token is needed then.
   */
  tenant?: Credentials;
};

/** A scope of the arrangements and the journal: one tenant's own (with a tenant's client: its own, always). */
export interface AccountFilter {
  accountId?: string;
}

type Query = Record<string, string | number | boolean | undefined>;

export class ControlClient {
  readonly transport: Transport;
  /** the tenant's public client whose token the calls carry (tenant clients only) */
  readonly #tenant: PixClient | null;

  readonly #options: ControlClientOptions;

  constructor(options: ControlClientOptions) {
    this.#options = options;
    const headers = { ...options.headers, ...(options.adminToken ? { 'x-sandbox-admin-token': options.adminToken } : {}) };
    this.transport = new Transport({ ...options, headers });
    this.#tenant = options.tenant ? new PixClient({ ...options, headers, credentials: options.tenant }) : null;
  }

  /** A client of the same sandbox acting as one tenant: its account's credentials (see ControlClientOptions.tenant). */
  asTenant(credentials: Credentials): ControlClient {
    const { adminToken: _admin, ...options } = this.#options;
    return new ControlClient({ ...options, tenant: credentials });
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Any control call, whatever its status (a tenant's client sends its token, renewed once when expired). */
  request<T = unknown>(method: string, path: string, o?: RequestOptions): Promise<RawResponse<T>> {
    return this.#tenant ? this.#tenant.request<T>(method, path, o) : this.transport.request<T>(method, path, o);
  }

  private async call<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    const res = await this.request<T>(method, `/_sandbox${path}`, { ...(body !== undefined ? { body } : {}), ...(query ? { query } : {}) });
    if (res.status < 200 || res.status >= 300) throw new SandboxApiError(method, `/_sandbox${path}`, res);
    return res.body;
  }

  health(): Promise<SandboxHealth> {
    return this.call('GET', '/health');
  }

  /** Back to the fixtures (another set when given); the clock offset is cleared. */
  reset(body: ResetBody = {}): Promise<ResetResult> {
    return this.call('POST', '/reset', body);
  }

  // charges and transfers: the transitions the real service decides on its own
  /** WAITING_PAYMENT → PAID, with payer data (generated when absent). */
  pay(chargeId: string, payer?: Payer): Promise<SandboxTransaction> {
    return this.call('POST', `/charges/${seg(chargeId)}/pay`, payer ? { payer } : {});
  }
  /** Pays whichever charge the copy-and-paste code belongs to, as a payer's app would. */
  payByCode(pixCode: string, payer?: Payer): Promise<SandboxTransaction> {
    return this.call('POST', '/pix/pay', { pixCode, ...(payer ? { payer } : {}) });
  }
  /** Pays the charge whose QR code appears in an image: PNG or JPEG bytes (a page screenshot will do), or their base64. */
  payByQrImage(image: Uint8Array | string, payer?: Payer): Promise<SandboxTransaction> {
    const qrImage = typeof image === 'string' ? image : Buffer.from(image.buffer, image.byteOffset, image.byteLength).toString('base64');
    return this.call('POST', '/pix/pay', { qrImage, ...(payer ? { payer } : {}) });
  }
  expire(chargeId: string): Promise<SandboxTransaction> {
    return this.call('POST', `/charges/${seg(chargeId)}/expire`, {});
  }
  cancel(chargeId: string): Promise<SandboxTransaction> {
    return this.call('POST', `/charges/${seg(chargeId)}/cancel`, {});
  }
  /** PROCESSING → COMPLETED now, whatever the key directory says. */
  complete(transferId: string): Promise<SandboxTransaction> {
    return this.call('POST', `/transfers/${seg(transferId)}/complete`, {});
  }
  /** PROCESSING → FAILED now, with this error (the amount goes back). */
  fail(transferId: string, error: TransferFailBody): Promise<SandboxTransaction> {
    return this.call('POST', `/transfers/${seg(transferId)}/fail`, error);
  }
  transactions(filter: Partial<TransactionListQuery> = {}): Promise<SandboxTransaction[]> {
    return this.call('GET', '/transactions', undefined, filter);
  }
  /** One transaction as stored, with its QR image, ledger entries and events. */
  transaction(id: string): Promise<SandboxTransactionDetail> {
    return this.call('GET', `/transactions/${seg(id)}`);
  }

  // time
  /** A tenant's clock (`accountId`), or the sandbox-wide one. */
  clock(accountId?: string): Promise<SandboxClock> {
    return this.call('GET', '/clock', undefined, { accountId }); // an undefined query value is left out
  }
  /**
   * Moves one tenant's clock (`accountId`) or every tenant's forward, walking through what falls due
   * (each at its own instant, webhook retries included) before answering.
   */
  advanceClock(seconds: number, opts: { accountId?: string } = {}): Promise<SandboxClock> {
    return this.call('POST', '/clock/advance', { seconds, ...opts });
  }
  /** Moves the clock forward to an instant (ISO 8601, after the clock's now). */
  advanceClockTo(to: string, opts: { accountId?: string } = {}): Promise<SandboxClock> {
    return this.call('POST', '/clock/advance', { to, ...opts });
  }
  /** Stops a tenant's clock (or every tenant's) where it stands; only an advance moves it then. */
  freezeClock(accountId?: string): Promise<SandboxClock> {
    return this.call('POST', '/clock/freeze', accountId === undefined ? {} : { accountId });
  }
  /** Lets a frozen clock flow again from where it stands. */
  unfreezeClock(accountId?: string): Promise<SandboxClock> {
    return this.call('POST', '/clock/unfreeze', accountId === undefined ? {} : { accountId });
  }

  // tenants and money
  createAccount(body: AccountCreateBody): Promise<SandboxAccount & { client_secret: string }> {
    return this.call('POST', '/accounts', body);
  }
  accounts(): Promise<SandboxAccount[]> {
    return this.call('GET', '/accounts');
  }
  account(accountId: string): Promise<SandboxAccount> {
    return this.call('GET', `/accounts/${seg(accountId)}`);
  }
  merchants(filter: { accountId?: string; status?: MerchantStatusBody['status'] } = {}): Promise<SandboxMerchant[]> {
    return this.call('GET', '/merchants', undefined, filter);
  }
  wallet(walletId: string): Promise<SandboxWallet> {
    return this.call('GET', `/wallets/${seg(walletId)}`);
  }
  updateAccount(accountId: string, patch: AccountPatchBody): Promise<SandboxAccount> {
    return this.call('PATCH', `/accounts/${seg(accountId)}`, patch);
  }
  /** Deletes a tenant and everything of it at once; its tokens answer 401 from then on (the default account cannot be deleted). */
  deleteAccount(accountId: string): Promise<void> {
    return this.call('DELETE', `/accounts/${seg(accountId)}`);
  }
  /** Moves money into an account's main balance (negative: out of it, never below zero). */
  credit(accountId: string, amount: number, description?: string): Promise<SandboxAccount> {
    return this.call('POST', `/accounts/${seg(accountId)}/credit`, { amount, ...(description ? { description } : {}) });
  }
  creditWallet(walletId: string, amount: number, description?: string): Promise<SandboxWallet> {
    return this.call('POST', `/wallets/${seg(walletId)}/credit`, { amount, ...(description ? { description } : {}) });
  }
  setMerchantStatus(merchantId: string, status: MerchantStatusBody['status']): Promise<SandboxMerchant> {
    return this.call('PATCH', `/merchants/${seg(merchantId)}`, { status });
  }
  /** Puts a tenant back as it stood right after it was created or loaded from fixtures, keeping its id and credentials. */
  resetAccount(accountId: string): Promise<SandboxAccount> {
    return this.call('POST', `/accounts/${seg(accountId)}/reset`);
  }

  /** Named snapshots (docs/control-api.md#snapshots): a tenant's whole world, or (no accountId) the whole sandbox. */
  readonly snapshots = {
    /** Saves under `name` (409 CONFLICT when it is taken, unless `replace: true`). */
    save: (name: string, opts: Omit<SnapshotSaveBody, 'name'> = {}): Promise<SandboxSnapshot> =>
      this.call('POST', '/snapshots', { name, ...opts }),
    list: (filter: { accountId?: string } = {}): Promise<SandboxSnapshot[]> => this.call('GET', '/snapshots', undefined, filter),
    get: (name: string): Promise<SandboxSnapshot> => this.call('GET', `/snapshots/${seg(name)}`),
    /** Puts its tenant (or the whole sandbox) back as it was; answers once that is durable. */
    restore: (name: string): Promise<SandboxSnapshot> => this.call('POST', `/snapshots/${seg(name)}/restore`),
    /** The snapshot as a fixtures document: `--fixtures` starts a sandbox in its state. */
    export: (name: string): Promise<FixturesDocument> => this.call('GET', `/snapshots/${seg(name)}/export`),
    remove: (name: string): Promise<void> => this.call('DELETE', `/snapshots/${seg(name)}`),
  };

  // Keys, rules and faults are sandbox-wide, or one tenant's own with `accountId` (docs/control-api.md#scoped-arrangements):
  // a list or a clear names the tenant, or (none) reaches every scope; a single entry's scope is its tenant, or sandbox-wide.
  readonly pixKeys = {
    list: (filter: AccountFilter = {}): Promise<SandboxPixKey[]> => this.call('GET', '/pix-keys', undefined, { ...filter }),
    add: (key: PixKeyBody): Promise<SandboxPixKey> => this.call('POST', '/pix-keys', key),
    get: (key: string, scope: AccountFilter = {}): Promise<SandboxPixKey> =>
      this.call('GET', `/pix-keys/${seg(key)}`, undefined, { ...scope }),
    remove: (key: string, scope: AccountFilter = {}): Promise<void> =>
      this.call('DELETE', `/pix-keys/${seg(key)}`, undefined, { ...scope }),
    clear: (filter: AccountFilter = {}): Promise<void> => this.call('DELETE', '/pix-keys', undefined, { ...filter }),
  };

  readonly rules = {
    list: (filter: AccountFilter = {}): Promise<SandboxRule[]> => this.call('GET', '/rules', undefined, { ...filter }),
    add: (rule: RuleCreateBody): Promise<SandboxRule> => this.call('POST', '/rules', rule),
    remove: (id: string, scope: AccountFilter = {}): Promise<void> => this.call('DELETE', `/rules/${seg(id)}`, undefined, { ...scope }),
    clear: (filter: AccountFilter = {}): Promise<void> => this.call('DELETE', '/rules', undefined, { ...filter }),
  };

  readonly webhooks = {
    add: (endpoint: WebhookEndpointInput): Promise<WebhookEndpointView> => this.call('POST', '/webhooks', endpoint),
    list: (filter: { accountId?: string } = {}): Promise<WebhookEndpointView[]> => this.call('GET', '/webhooks', undefined, filter),
    remove: (id: string): Promise<void> => this.call('DELETE', `/webhooks/${seg(id)}`),
    clear: (filter: { accountId?: string } = {}): Promise<void> => this.call('DELETE', '/webhooks', undefined, filter),
    deliveries: (filter: Partial<DeliveriesQuery> = {}): Promise<WebhookDelivery[]> =>
      this.call('GET', '/webhooks/deliveries', undefined, filter),
    delivery: (id: string): Promise<WebhookDeliveryDetail> => this.call('GET', `/webhooks/deliveries/${seg(id)}`),
    redeliver: (deliveryId: string): Promise<WebhookDelivery> => this.call('POST', `/webhooks/deliveries/${seg(deliveryId)}/redeliver`, {}),
    /** Sends an event for a transaction now (its current status' event unless `type` is given). */
    fire: (input: FireInput): Promise<FireResult> => this.call('POST', '/webhooks/fire', input),
    /** Delivery faults (docs/webhooks.md#delivery-faults): a copy, a hold, a delay, a drop, a spoilt signature. */
    faults: {
      add: (fault: WebhookFaultBody): Promise<WebhookFaultView> => this.call('POST', '/webhooks/faults', fault),
      list: (filter: { accountId?: string } = {}): Promise<WebhookFaultView[]> => this.call('GET', '/webhooks/faults', undefined, filter),
      remove: (id: string): Promise<void> => this.call('DELETE', `/webhooks/faults/${seg(id)}`),
      clear: (filter: { accountId?: string } = {}): Promise<void> => this.call('DELETE', '/webhooks/faults', undefined, filter),
    },
    /** Sends any JSON body to an endpoint once, signed as asked; answers the receiver's status. */
    send: (input: WebhookSendBody): Promise<WebhookSendResult> => this.call('POST', '/webhooks/send', input),
    /** The log of those sends, newest first. */
    sends: (filter: { endpointId?: string; limit?: number } = {}): Promise<WebhookSendView[]> =>
      this.call('GET', '/webhooks/sends', undefined, filter),
    /** The webhook probe of one endpoint: a past event sent bad, stale and as a duplicate (docs/report.md#webhook-signature). */
    audit: (endpointId: string): Promise<WebhookAudit> => this.call('POST', '/webhooks/audit', { endpointId }),
  };

  readonly faults = {
    list: (filter: AccountFilter = {}): Promise<SandboxFault[]> => this.call('GET', '/faults', undefined, { ...filter }),
    add: (fault: FaultBody): Promise<SandboxFault> => this.call('POST', '/faults', fault),
    remove: (id: string): Promise<void> => this.call('DELETE', `/faults/${seg(id)}`),
    clear: (filter: AccountFilter = {}): Promise<void> => this.call('DELETE', '/faults', undefined, { ...filter }),
  };

  /**
   * Whether the app sent matching requests (docs/control-api.md#verifying-requests). Answers when it holds;
   * when not, throws SandboxApiError with code VERIFICATION_FAILED, its `body` a VerificationFailure.
   */
  verify(matcher: VerifyMatcher): Promise<Verification> {
    return this.call('POST', '/verify', matcher);
  }
  /** Whether the app sent requests matching each item in this order; a failure throws as verify does. */
  verifySequence(requests: SequenceItem[], opts: { accountId?: string; within?: number } = {}): Promise<Verification> {
    return this.call('POST', '/verify/sequence', { requests, ...opts });
  }
  /** The integration report of one tenant (a tenant's client: its own); `probe` runs the webhook probe first (docs/report.md). */
  report(q: { accountId?: string; probe?: boolean } = {}): Promise<IntegrationReport> {
    return this.call('GET', '/report', undefined, { ...q });
  }

  /** The request journal: one tenant's requests (`accountId`), or every tenant's, newest first. */
  readonly requests = {
    list: (filter: Partial<RequestsQuery> = {}): Promise<JournalEntry[]> => this.call('GET', '/requests', undefined, filter),
    clear: (filter: AccountFilter = {}): Promise<void> => this.call('DELETE', '/requests', undefined, { ...filter }),
  };
}
