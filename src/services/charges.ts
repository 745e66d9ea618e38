// Charges applied to the store: each function runs inside one `store.commit`, checks the
// transition table, moves money through the ledger and emits the event in the same commit.
import type { AppContext } from '../context.js';
import { buildDynamicBrCode } from '../domain/brcode.js';
import {
  autoPayOutcome,
  buildCharge,
  cashInIssues,
  chargeLocation,
  closedCharge,
  defaultPayer,
  MERCHANT_CITY,
  paidCharge,
  receiverShare,
  type ClosingAction,
} from '../domain/charges.js';
import { generateEndToEndId } from '../domain/end-to-end.js';
import { notFound, SandboxError } from '../domain/errors.js';
import { accountRef, entryFor, walletRef } from '../domain/ledger.js';
import { scheduleOutcome } from '../domain/rules.js';
import { computeSplits } from '../domain/splits.js';
import type { CashInBody, SplitEntryBody } from '../schemas/public.js';
import type { Account, Charge, LedgerRef, Party, SplitShare } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { emitEvent } from './events.js';
import { rulesFor } from './rules.js';

/** Whose money: the account's main balance, or the merchant's main wallet. */
export interface Actor {
  accountId: string;
  merchantId: string | null;
}

/** The ledger account that a transaction of this account (or merchant) credits or debits. */
export function fundsRef(tx: Reads, accountId: string, merchantId: string | null): LedgerRef {
  if (!merchantId) return accountRef(accountId);
  const merchant = tx.merchants.get(merchantId);
  if (!merchant) throw notFound(`merchant ${merchantId}`);
  return walletRef(merchant.walletId);
}

/** Split shares (docs/decisions.md#d16-splits): feature, arithmetic, then every wallet of this account and ACTIVE. */
function resolveSplits(tx: Reads, account: Readonly<Account>, amount: number, split: CashInBody['split']): SplitShare[] {
  if (split === undefined) return [];
  if (!account.splitEnabled)
    throw new SandboxError(
      'SPLIT_NOT_ENABLED',
      'the split feature is not enabled for this account; ask the operator to enable it (control API: splitEnabled)',
    );
  const list: SplitEntryBody[] = Array.isArray(split) ? split : [split];
  const result = computeSplits(
    amount,
    list.map((s) => ({ ...s, wallet_id: s.wallet_id.toLowerCase() })),
  );
  if (!result.ok) throw new SandboxError(result.code, result.message, result.details);
  result.shares.forEach((s, i) => {
    const wallet = tx.wallets.get(s.walletId);
    const path = `/split/${i}/wallet_id`;
    if (!wallet || wallet.accountId !== account.id)
      throw new SandboxError('WALLET_NOT_FOUND', `wallet ${s.walletId} is not a wallet of this account`, [
        { path, message: 'is not a wallet of this account' },
      ]);
    const merchant = tx.merchants.get(wallet.merchantId);
    if (merchant?.status !== 'ACTIVE')
      throw new SandboxError('WALLET_NOT_ACTIVE', `wallet ${s.walletId} belongs to a merchant that is ${merchant?.status ?? 'gone'}`, [
        { path, message: 'belongs to a merchant that is not ACTIVE' },
      ]);
  });
  return result.shares;
}

export function createCharge(tx: Tx, ctx: AppContext, actor: Actor, body: CashInBody): Readonly<Charge> {
  const account = tx.accounts.get(actor.accountId);
  if (!account) throw notFound(`account ${actor.accountId}`);
  const merchant = actor.merchantId ? tx.merchants.get(actor.merchantId) : undefined;
  if (actor.merchantId && !merchant) throw notFound(`merchant ${actor.merchantId}`);
  const issues = cashInIssues(body);
  if (issues.length > 0) throw new SandboxError('VALIDATION_ERROR', `customer.document ${issues[0]!.message}`, issues);
  const split = resolveSplits(tx, account, body.amount, body.split);

  const now = ctx.clockOf(account.id).now();
  const id = ctx.newId();
  const subject = { type: 'CASH_IN' as const, amount: body.amount, description: body.description, document: body.customer.document };
  const outcome =
    scheduleOutcome(rulesFor(tx, account.id), subject, now) ??
    (account.autoPayAfterSeconds !== null ? autoPayOutcome(account.autoPayAfterSeconds, now) : undefined);
  const location = chargeLocation(ctx.publicUrl(), id);
  if (location.length > 77)
    throw new SandboxError(
      'INTERNAL_ERROR',
      `the public URL ${ctx.publicUrl()} is too long for a BR Code location (77 characters); set a shorter --public-url`,
    );
  const pixCode = buildDynamicBrCode({
    location,
    amountCents: body.amount,
    merchantName: merchant?.name ?? account.name,
    merchantCity: MERCHANT_CITY,
  });
  const charge = tx.put(
    'transactions',
    buildCharge({
      id,
      accountId: account.id,
      merchantId: merchant?.id ?? null,
      input: body,
      pixCode,
      split,
      now,
      ...(outcome ? { outcome } : {}),
    }),
  ) as Readonly<Charge>;
  emitEvent(tx, charge, charge.createdAt, ctx.newId);
  return charge;
}

export function getCharge(tx: Reads, id: string): Readonly<Charge> {
  const t = tx.transactions.get(id);
  if (!t || t.type !== 'CASH_IN') throw notFound(`charge ${id}`);
  return t;
}

/** → PAID at `at`: the receiver gets the amount less the split shares, each wallet its share. */
export function payChargeAt(tx: Tx, ctx: AppContext, id: string, payer: Partial<Party> | undefined, at: Date): Readonly<Charge> {
  const charge = getCharge(tx, id);
  const atIso = at.toISOString();
  const fullPayer = defaultPayer(charge, payer, ctx.random.next);
  const paid = paidCharge(charge, fullPayer, generateEndToEndId(fullPayer.ispb, at, ctx.random.next), atIso);
  const balance = (ref: LedgerRef) => tx.balances.of(ref);
  const rest = receiverShare(charge);
  const to = fundsRef(tx, charge.accountId, charge.merchantId);
  if (rest > 0)
    tx.put('ledger', entryFor(balance, { from: 'world', to, amount: rest, kind: 'CASH_IN', transactionId: id }, ctx.newId(), atIso));
  // a share that rounds to 0 cents (1 % of 50 cents) moves nothing, so it leaves no entry
  for (const s of charge.split) {
    if (s.share <= 0) continue;
    const movement = { from: 'world' as const, to: walletRef(s.walletId), amount: s.share, kind: 'SPLIT' as const, transactionId: id };
    tx.put('ledger', entryFor(balance, movement, ctx.newId(), atIso));
  }
  const stored = tx.put('transactions', paid);
  emitEvent(tx, stored, atIso, ctx.newId);
  return stored as Readonly<Charge>;
}

/** → EXPIRED or CANCELLED at `at`; no money moves. */
export function closeChargeAt(tx: Tx, ctx: AppContext, id: string, action: ClosingAction, at: Date): Readonly<Charge> {
  const closed = tx.put('transactions', closedCharge(getCharge(tx, id), action, at.toISOString())) as Readonly<Charge>;
  emitEvent(tx, closed, closed.updatedAt, ctx.newId);
  return closed;
}

export function payCharge(tx: Tx, ctx: AppContext, id: string, payer?: Partial<Party>): Readonly<Charge> {
  return payChargeAt(tx, ctx, id, payer, chargeNow(tx, ctx, id));
}

export function expireCharge(tx: Tx, ctx: AppContext, id: string): Readonly<Charge> {
  return closeChargeAt(tx, ctx, id, 'expire', chargeNow(tx, ctx, id));
}

export function cancelCharge(tx: Tx, ctx: AppContext, id: string): Readonly<Charge> {
  return closeChargeAt(tx, ctx, id, 'cancel', chargeNow(tx, ctx, id));
}

/** Now by the clock of the charge's tenant. */
const chargeNow = (tx: Tx, ctx: AppContext, id: string): Date => ctx.clockOf(getCharge(tx, id).accountId).now();
