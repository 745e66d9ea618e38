// A small typed client for the public API (the spec's paths and wire shapes, unchanged), with
// token caching: one token per client, renewed before it expires and once more when the sandbox
// says it has expired (a clock advance ages tokens faster than real time).
import { randomUUID } from 'node:crypto';
import type { Wire } from '../schemas/from-schema.js';
import type {
  balanceResponseSchema,
  cashInResponseSchema,
  cashOutResponseSchema,
  lookupResponseSchema,
  merchantBalanceSchema,
  merchantCreatedSchema,
  merchantListSchema,
  merchantSchema,
  merchantUpdatedSchema,
  tokenResponseSchema,
} from '../schemas/public-responses.js';
import type { CashInBody, CashOutBody, MerchantCreateBody, MerchantListQuery, MerchantPatchBody } from '../schemas/public.js';
import { SandboxApiError, Transport, seg, type RawResponse, type RequestOptions, type TransportOptions } from './transport.js';

export interface Credentials {
  client_id: string;
  client_secret: string;
}

// Every answer's type is its schema's (src/schemas/public-responses.ts).
export type TokenResponse = Wire<typeof tokenResponseSchema>;

/** The cash-in body; `expiration` defaults to 86400 s on the server. */
export type CashInRequest = Omit<CashInBody, 'expiration'> & { expiration?: number };
/** The cash-out body; `type` defaults to `pix_key`. */
export type CashOutRequest = Omit<CashOutBody, 'type'> & { type?: 'pix_key' };
export type CashInResponse = Wire<typeof cashInResponseSchema>;
export type CashOutResponse = Wire<typeof cashOutResponseSchema>;
export type TransactionLookupResponse = Wire<typeof lookupResponseSchema>;
export type BalanceResponse = Wire<typeof balanceResponseSchema>;
export type MerchantCreateRequest = MerchantCreateBody;
export type MerchantUpdateRequest = MerchantPatchBody;
export type MerchantListRequest = Partial<MerchantListQuery>;
export type MerchantCreatedResponse = Wire<typeof merchantCreatedSchema>;
export type MerchantListResponse = Wire<typeof merchantListSchema>;
export type MerchantResponse = Wire<typeof merchantSchema>;
export type MerchantUpdatedResponse = Wire<typeof merchantUpdatedSchema>;
export type MerchantBalanceResponse = Wire<typeof merchantBalanceSchema>;

export interface PixClientOptions extends TransportOptions {
  credentials: Credentials;
}

const RENEW_MARGIN_MS = 30_000;

export class PixClient {
  readonly transport: Transport;
  readonly credentials: Credentials;
  private cached: { token: string; renewAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(private readonly options: PixClientOptions) {
    this.transport = new Transport(options);
    this.credentials = options.credentials;
  }

  /** A client for other credentials (a merchant's, another account's) on the same sandbox. */
  withCredentials(credentials: Credentials): PixClient {
    return new PixClient({ ...this.options, credentials });
  }

  /** POST /v1/oauth/token with this client's credentials (no caching). */
  requestToken(): Promise<TokenResponse> {
    return this.transport.call<TokenResponse>('POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', ...this.credentials },
    });
  }

  /** A valid access token: the cached one, or a new one when it is close to expiry. */
  async token(): Promise<string> {
    if (this.cached && Date.now() < this.cached.renewAt) return this.cached.token;
    this.pending ??= this.requestToken().then(
      (t) => {
        this.cached = { token: t.access_token, renewAt: Date.now() + t.expires_in * 1000 - RENEW_MARGIN_MS };
        this.pending = null;
        return t.access_token;
      },
      (e: unknown) => {
        this.pending = null;
        throw e;
      },
    );
    return this.pending;
  }

  /** Forgets the cached token (the next call fetches a new one). */
  dropToken(): void {
    this.cached = null;
  }

  /**
   * An authenticated exchange, whatever its status; retried once with a new token after TOKEN_EXPIRED,
   * or INVALID_TOKEN (a reset made the client again: tokens of before it are refused, docs/api.md#bearer-authentication).
   */
  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<RawResponse<T>> {
    const send = async () =>
      this.transport.request<T>(method, path, { ...o, headers: { authorization: `Bearer ${await this.token()}`, ...o.headers } });
    const res = await send();
    const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
    if (res.status === 401 && (code === 'TOKEN_EXPIRED' || code === 'INVALID_TOKEN') && o.headers?.authorization === undefined) {
      this.dropToken();
      return send();
    }
    return res;
  }

  private async call<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const res = await this.request<T>(method, path, o);
    if (res.status < 200 || res.status >= 300) throw new SandboxApiError(method, path, res);
    return res.body;
  }

  /** POST /v1/banking/cash-in/pix: a charge, WAITING_PAYMENT, with pixCode and qrCode. */
  cashIn(body: CashInRequest): Promise<CashInResponse> {
    return this.call('POST', '/v1/banking/cash-in/pix', { body });
  }

  /** POST /v1/banking/cash-out/pix; the idempotency key is a new UUID unless given. */
  cashOut(body: CashOutRequest, opts: { idempotencyKey?: string } = {}): Promise<CashOutResponse> {
    const headers = { 'x-idempotency-key': opts.idempotencyKey ?? randomUUID() };
    return this.call('POST', '/v1/banking/cash-out/pix', { body: { type: 'pix_key', ...body }, headers });
  }

  /** GET /v1/banking/transactions/{id}: the envelope, `data` holding id and status (and receipt data). */
  getTransaction(transactionId: string): Promise<TransactionLookupResponse> {
    return this.call('GET', `/v1/banking/transactions/${seg(transactionId)}`);
  }

  /** GET /v1/banking/balance: the principal's balance in cents, in the envelope. */
  getBalance(): Promise<BalanceResponse> {
    return this.call('GET', '/v1/banking/balance');
  }

  readonly merchants = {
    create: (body: MerchantCreateRequest): Promise<MerchantCreatedResponse> => this.call('POST', '/v1/merchants', { body }),
    list: (query: MerchantListRequest = {}): Promise<MerchantListResponse> => this.call('GET', '/v1/merchants', { query }),
    get: (merchantId: string): Promise<MerchantResponse> => this.call('GET', `/v1/merchants/${seg(merchantId)}`),
    update: (merchantId: string, body: MerchantUpdateRequest): Promise<MerchantUpdatedResponse> =>
      this.call('PATCH', `/v1/merchants/${seg(merchantId)}`, { body }),
    /** GET /v1/merchants/balance: needs a merchant's token (see withCredentials). */
    balance: (): Promise<MerchantBalanceResponse> => this.call('GET', '/v1/merchants/balance'),
  };

  /** Shorthand of merchants.balance(). */
  merchantBalance(): Promise<MerchantBalanceResponse> {
    return this.merchants.balance();
  }
}
