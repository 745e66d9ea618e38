// POST /v1/banking/cash-out/pix (spec "cash-out") with the idempotency of
// docs/decisions.md#d27-idempotency-of-cash-out: the whole story is services/transfers.ts cashOut.
import { IDEMPOTENCY_HEADER, idempotencyKeyOf, REPLAYED_HEADER } from '../domain/idempotency.js';
import { actorOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { created, e } from '../schemas/operation.js';
import { cashOutSchema, type CashOutBody } from '../schemas/public.js';
import * as R from '../schemas/responses.js';
import { cashOutChecks } from '../schemas/checks.js';
import { cashOut } from '../services/transfers.js';

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
      // the key's header is judged before the body, so a request wrong in both ways hears of the key
      const key = idempotencyKeyOf(req.get(IDEMPOTENCY_HEADER));
      const answer = await cashOut(ctx, actorOf(res), key, readBody());
      if (answer.replayed) res.setHeader(REPLAYED_HEADER, 'true');
      res.status(answer.statusCode).json(answer.body);
    },
  }),
];
