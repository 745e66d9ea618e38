// Merchant wire shapes, exactly as the spec names them: snake_case `created_at`/`updated_at`
// and `id` on creation, camelCase `merchantId`/`createdAt`/`updatedAt` everywhere else.
// Only creation and the balance carry the {statusCode, message, data} envelope.
import type { Wire } from '../schemas/from-schema.js';
import type {
  merchantBalanceSchema,
  merchantCreatedSchema,
  merchantListSchema,
  merchantSchema,
  merchantUpdatedSchema,
} from '../schemas/public-responses.js';
import type { Merchant, Wallet } from '../store/model.js';

type MerchantListItem = Wire<typeof merchantListSchema>['data'][number];

/** The fields every merchant shape shares, in the spec's order. */
export function merchantFields(m: Merchant) {
  return { name: m.name, document: m.document, document_type: m.documentType, email: m.email, phone: m.phone, status: m.status };
}

export function formatMerchantCreated(m: Merchant, wallet: Wallet, clientSecret: string): Wire<typeof merchantCreatedSchema> {
  return {
    statusCode: 201,
    message: 'Merchant created successfully',
    data: {
      merchant: {
        id: m.id,
        ...merchantFields(m),
        created_at: m.createdAt,
        updated_at: m.updatedAt,
      },
      wallet_id: wallet.id,
      credentials: { client_id: m.clientId, client_secret: clientSecret },
    },
  };
}

function formatMerchantListItem(m: Merchant): MerchantListItem {
  return {
    merchantId: m.id,
    ...merchantFields(m),
    createdAt: m.createdAt,
  };
}

export function formatMerchantList(items: Merchant[], page: number, limit: number, total: number): Wire<typeof merchantListSchema> {
  return {
    data: items.map(formatMerchantListItem),
    pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
  };
}

export function formatMerchant(m: Merchant, wallets: { wallet: Wallet; balance: number }[]): Wire<typeof merchantSchema> {
  return {
    merchantId: m.id,
    ...merchantFields(m),
    wallets: wallets.map(({ wallet, balance }) => ({ walletId: wallet.id, name: wallet.name, balance, currency: wallet.currency })),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

export function formatMerchantUpdated(m: Merchant): Wire<typeof merchantUpdatedSchema> {
  return {
    merchantId: m.id,
    ...merchantFields(m),
    updatedAt: m.updatedAt,
  };
}

export function formatMerchantBalance(balance: number): Wire<typeof merchantBalanceSchema> {
  return { statusCode: 200, message: 'Balance retrieved successfully', data: { balance } };
}
