// Tenants and who works within them: accounts, their merchants and the merchants' wallets. Part of
// the one data model (./model.ts re-exports it). No answer shows these records as they are (names
// change on the wire, secrets never leave), so they are declared here, their views in src/schemas/.
import type { DocumentType, MerchantStatus } from '../domain/vocabulary.js';
import type { Stored } from './model-meta.js';

export interface Account extends Stored {
  id: string;
  name: string;
  clientId: string;
  /** scrypt, "scrypt$<salt hex>$<hash hex>" */
  secretHash: string;
  /**
   * Its access tokens carry it and pass only while it is unchanged: given from meta.tokenGeneration when
   * the principal is made and when its credentials change (absent in an older file: 0)
   */
  tokenGeneration?: number;
  splitEnabled: boolean;
  /** charges of this account are paid automatically this many seconds after creation; null = never */
  autoPayAfterSeconds: number | null;
  /** transfers settle this many seconds after creation (0 = next tick) */
  settleAfterSeconds: number;
  /** the account's own clock (docs/architecture.md#the-clock); absent: the sandbox-wide clock */
  clock?: AccountClock;
  /** the account's rate limit (docs/decisions.md#d80-rate-limits-per-client); absent or null: off */
  rateLimit?: RateLimit | null;
  createdAt: string;
  updatedAt: string;
}

/** A tenant's rate limit, every field decided (the defaults: src/domain/rate-limit.ts DEFAULT_RATE_LIMIT). */
export interface RateLimit {
  /** API requests a client may make per second, on average (a bucket's refill) */
  requestsPerSecond: number;
  /** API requests a client may make at once (a bucket's capacity) */
  burst: number;
  /** token requests (POST /v1/oauth/token) a client may make per minute: their own bucket, refilled and sized by it */
  tokenRequestsPerMinute: number;
}

/** A tenant's clock: the sandbox-wide clock plus its own offset, or frozen at an instant. */
export interface AccountClock {
  /** added to the sandbox-wide clock while it flows */
  offsetMs: number;
  /** epoch ms it stands at while frozen; null: it flows */
  frozenAtMs: number | null;
}

export interface Merchant extends Stored {
  id: string;
  accountId: string;
  name: string;
  document: string;
  documentType: DocumentType;
  email: string;
  phone: string;
  status: MerchantStatus;
  clientId: string;
  secretHash: string;
  /**
   * Its access tokens carry it and pass only while it is unchanged: given from meta.tokenGeneration when
   * the principal is made and when its credentials change (absent in an older file: 0)
   */
  tokenGeneration?: number;
  /** the merchant's main wallet */
  walletId: string;
  createdAt: string;
  updatedAt: string;
}

export interface Wallet extends Stored {
  id: string;
  accountId: string;
  merchantId: string;
  name: string;
  currency: 'BRL';
  createdAt: string;
}
