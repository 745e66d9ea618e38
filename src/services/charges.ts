// Charges: POST /v1/banking/cash-in/pix (cashIn), and each later transition applied inside one
// `store.commit` (pay, expire, cancel: by the clock, an outcome rule or the control API), checked by
// the transition table, moving money through the ledger and emitting the event in the same commit.
import type { AppContext } from '../context.js';
import { buildDynamicBrCode } from '../domain/brcode.js';
import {
  autoPayOutcome,
  buildCharge,
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
import { entryFor, walletRef } from '../domain/ledger.js';
import { scheduleOutcome } from '../domain/rules.js';
import { computeSplits } from '../domain/splits.js';
import type { CashInBody, SplitEntryBody } from '../schemas/public.js';
import { renderQrDataUrl } from '../format/qr.js';
import type { Account, Charge, LedgerRef, Party, SplitShare } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { fundsRef, type Actor } from './banking.js';
import { emitEvent } from './events.js';
import { rulesFor } from './rules.js';

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

/**
 * POST /v1/banking/cash-in/pix (docs/api.md#charges-cash-in): the charge, WAITING_PAYMENT, with its
 * BR Code and QR image. The body was validated once, when the handler read it: cashInSchema and its
 * check (the customer's document, src/schemas/checks.ts). The change is applied at once; its PNG is
 * drawn while the write is under way (and never stored: pixCode is enough), and the answer waits
 * until the change is durable.
 */
export async function cashIn(ctx: AppContext, actor: Actor, body: CashInBody): Promise<{ charge: Readonly<Charge>; qrCode: string }> {
  let charge: Readonly<Charge> | undefined;
  const durable = ctx.store.commit((tx) => (charge = createCharge(tx, ctx, actor, body)));
  // a refused change leaves `charge` unset and `durable` rejected
  const qrCode = charge ? renderQrDataUrl(charge.pixCode) : '';
  await durable;
  return { charge: charge!, qrCode };
}

/** Inside the commit: the split shares, the fate of the charge (an outcome rule, else the account's auto-pay), its BR Code, the event. */
function createCharge(tx: Tx, ctx: AppContext, actor: Actor, body: CashInBody): Readonly<Charge> {
  const account = tx.accounts.get(actor.accountId);
  if (!account) throw notFound(`account ${actor.accountId}`);
  const merchant = actor.merchantId ? tx.merchants.get(actor.merchantId) : undefined;
  if (actor.merchantId && !merchant) throw notFound(`merchant ${actor.merchantId}`);
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
