// POST /v1/banking/cash-out/pix (spec "cash-out") with the idempotency of CONTRACT §7. The key's
// record is written in the same atomic change as the transfer, so a duplicate that arrives at the
// same instant finds it at once and can never create a second transfer; it answers only once the
// original is durable. Rejected requests (validation, INSUFFICIENT_FUNDS) leave no record.
import type { AppContext } from '../context.js';
import {
  bodyHash,
  buildIdempotencyRecord,
  IDEMPOTENCY_HEADER,
  idempotencyDecision,
  idempotencyKeyOf,
  idempotencyRecordId,
  REPLAYED_HEADER,
} from '../domain/idempotency.js';
import { formatCashOut } from '../format/transactions.js';
import { authenticate, principalOf } from '../http/auth.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import { cashOutSchema, type CashOutBody } from '../schemas/public.js';
import { cashOutChecks } from '../schemas/checks.js';
import { createTransfer } from '../services/transfers.js';
import { actorOf } from './charges.js';

export function transferRoutes(routes: Routes, ctx: AppContext): void {
  routes.post('/v1/banking/cash-out/pix', authenticate(ctx), parseBody(), async (req, res) => {
    const key = idempotencyKeyOf(req.get(IDEMPOTENCY_HEADER));
    const body = readBody<CashOutBody>(req, res, cashOutSchema, cashOutChecks);
    const principal = principalOf(res);
    const hash = bodyHash(body);
    // a replay changes nothing, yet its commit still waits for any write under way (the original's):
    // a replay never answers before the transfer it repeats is durable
    const answer = await ctx.store.commit((tx) => {
      const now = ctx.clockOf(principal.account.id).now();
      const decision = idempotencyDecision(tx.idempotency.get(idempotencyRecordId(principal.id, key)), hash, now.toISOString());
      if (decision.kind === 'replay') return { replayed: true, statusCode: decision.statusCode, body: decision.body };
      const created = formatCashOut(createTransfer(tx, ctx, actorOf(principal), body, key));
      tx.put(
        'idempotency',
        buildIdempotencyRecord({
          principalId: principal.id,
          accountId: principal.account.id,
          key,
          bodyHash: hash,
          statusCode: 201,
          body: created,
          now,
        }),
      );
      return { replayed: false, statusCode: 201, body: created };
    });
    if (answer.replayed) res.setHeader(REPLAYED_HEADER, 'true');
    res.status(answer.statusCode).json(answer.body);
  });
}
