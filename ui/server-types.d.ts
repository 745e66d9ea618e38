// The control API's answers the dashboard reads, typed by the server's own formatters (npm run
// typecheck:ui): a field renamed or removed there is a type error here. The only file of ui/ that
// names server code; no browser ever loads it.
import type { ClockView } from '../src/services/clock.js';
import type {
  formatAccount,
  formatFault,
  formatMerchant,
  formatPixKey,
  formatRule,
  formatSnapshot,
  formatTransactionDetail,
} from '../src/format/control.js';
import type { formatDelivery, formatEndpoint, formatWebhookFault } from '../src/format/webhooks.js';
import type { Party, Transaction as StoredTransaction } from '../src/store/model.js';
import type { Wire } from '../src/schemas/from-schema.js';
import type { reportSchema } from '../src/schemas/report.js';

export type { ClockView, Party };
export type { JournalEntry } from '../src/http/journal-log.js';
// formatTransaction is withoutSeq(t), whose Omit over the union would lose the variants:
// the same shape is named below per variant.
export type Account = ReturnType<typeof formatAccount>;
export type Merchant = ReturnType<typeof formatMerchant>;
/** formatTransaction's record (withoutSeq) kept per variant, so that `type` tells a charge from a transfer */
export type Transaction = StoredTransaction extends infer T ? (T extends unknown ? Omit<T, 'seq'> : never) : never;
export type TransactionDetail = Transaction & Pick<ReturnType<typeof formatTransactionDetail>, 'qrCode' | 'ledger' | 'events'>;
export type Delivery = ReturnType<typeof formatDelivery>;
export type Endpoint = ReturnType<typeof formatEndpoint>;
export type WebhookFault = ReturnType<typeof formatWebhookFault>;
export type PixKey = ReturnType<typeof formatPixKey>;
export type Rule = ReturnType<typeof formatRule>;
export type Fault = ReturnType<typeof formatFault>;
export type Snapshot = ReturnType<typeof formatSnapshot>;
export type IntegrationReport = Wire<typeof reportSchema>;
