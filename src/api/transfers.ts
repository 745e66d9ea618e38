// POST /v1/banking/cash-out/pix (spec "cash-out") with the idempotency of docs/decisions.md#d27-idempotency-of-cash-out. The key's
// record is written in the same atomic change as the transfer, so a duplicate that arrives at the
// same instant finds it at once and can never create a second transfer; it answers only once the
// original is durable. Rejected requests (validation, INSUFFICIENT_FUNDS) leave no record.
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
import { principalOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { created, e } from '../schemas/operation.js';
import { cashOutSchema, type CashOutBody } from '../schemas/public.js';
import * as R from '../schemas/responses.js';
import { cashOutChecks } from '../schemas/checks.js';
import { createTransfer } from '../services/transfers.js';
import { actorOf } from './charges.js';

export const transferOperations = [
  route<CashOutBody>({
    method: 'post',
    path: '/v1/banking/cash-out/pix',
    tag: 'Banking',
    auth: 'bearer',
    summary: 'Create a PIX transfer (cash-out)',
    body: cashOutSchema,
    check: cashOutChecks,
    headers: [
      {
        name: IDEMPOTENCY_HEADER,
        required: true,
        description: 'A UUID; the same key with the same body replays the first answer',
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    responses: {
      201: {
        ...created(R.cashOutResponseSchema, 'The transfer, PROCESSING (a replay answers the first answer again)'),
        headers: {
          [REPLAYED_HEADER]: {
            description: 'Only on a replay: the first answer to this key and body, again',
            required: false,
            schema: { const: 'true' },
          },
        },
      },
      400: e(['MISSING_IDEMPOTENCY_KEY', 'INVALID_IDEMPOTENCY_KEY'], 'the x-idempotency-key header is missing or not a UUID'),
      422: e(['INSUFFICIENT_FUNDS', 'IDEMPOTENCY_KEY_REUSED']),
    },
    async handle({ ctx, req, res, readBody }) {
      const key = idempotencyKeyOf(req.get(IDEMPOTENCY_HEADER));
      const body = readBody();
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
    },
  }),
];
