// The operation table: every operation of the public and control APIs, each entry with its
// method, path, schemas, answers and handler (docs/contributing.md#add-an-endpoint). createApp
// builds the router from it; /openapi.json and the precompiled validators read it too.
import { oauthOperations } from './api/oauth.js';
import { chargeLocationOperations, chargeOperations } from './api/charges.js';
import { transferOperations } from './api/transfers.js';
import { bankingOperations } from './api/banking.js';
import { merchantOperations } from './api/merchants.js';
import { openApiOperations } from './api/openapi.js';
import { healthOperations } from './control/health.js';
import { resetOperations } from './control/reset.js';
import { snapshotOperations } from './control/snapshots.js';
import { clockOperations } from './control/clock.js';
import { accountOperations } from './control/accounts.js';
import { walletOperations } from './control/wallets.js';
import { controlMerchantOperations } from './control/merchants.js';
import { controlTransactionOperations } from './control/transactions.js';
import { controlChargeOperations } from './control/charges.js';
import { controlPixOperations } from './control/pix.js';
import { controlTransferOperations } from './control/transfers.js';
import { pixKeyOperations } from './control/pix-keys.js';
import { ruleOperations } from './control/rules.js';
import { webhookControlOperations } from './control/webhooks.js';
import { webhookFaultOperations } from './control/webhook-faults.js';
import { requestOperations } from './control/requests.js';
import { verifyOperations } from './control/verify.js';
import { reportOperations } from './control/report.js';
import { faultOperations } from './control/faults.js';
import { uiOperations } from './control/ui.js';
import { changeOperations } from './control/changes.js';
import type { RouteOperation } from './http/operations.js';

/** In the order /openapi.json lists them. */
export const OPERATIONS: readonly RouteOperation[] = [
  ...oauthOperations,
  ...chargeOperations,
  ...transferOperations,
  ...bankingOperations,
  ...merchantOperations,
  ...chargeLocationOperations,
  ...healthOperations,
  ...resetOperations,
  ...snapshotOperations,
  ...clockOperations,
  ...accountOperations,
  ...walletOperations,
  ...controlMerchantOperations,
  ...controlTransactionOperations,
  ...controlChargeOperations,
  ...controlPixOperations,
  ...controlTransferOperations,
  ...pixKeyOperations,
  ...ruleOperations,
  ...webhookControlOperations,
  ...webhookFaultOperations,
  ...requestOperations,
  ...verifyOperations,
  ...reportOperations,
  ...faultOperations,
  ...uiOperations,
  ...changeOperations,
  ...openApiOperations,
];
