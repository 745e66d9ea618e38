// POST /v1/banking/cash-in/pix (spec "cash-in"), and the charge's location: the URL inside its
// BR Code (item 26/25), which a payer's bank reads without credentials.
import { formatCashIn, formatLocation } from '../format/transactions.js';
import { actorOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { cashInChecks } from '../schemas/checks.js';
import { created, e, NOT_FOUND, ok } from '../schemas/operation.js';
import { cashInSchema, type CashInBody } from '../schemas/public.js';
import * as R from '../schemas/responses.js';
import { cashIn, getCharge } from '../services/charges.js';

export const chargeOperations = [
  route<CashInBody>({
    method: 'post',
    path: '/v1/banking/cash-in/pix',
    tag: 'Banking',
    auth: 'bearer',
    summary: 'Create a PIX charge (cash-in)',
    body: cashInSchema,
    check: cashInChecks,
    responses: {
      201: created(R.cashInResponseSchema, 'The charge, WAITING_PAYMENT, with its copy-and-paste code and QR image'),
      403: e('SPLIT_NOT_ENABLED'),
      422: e(['SPLIT_EXCEEDS_AMOUNT', 'WALLET_NOT_FOUND', 'WALLET_NOT_ACTIVE']),
    },
    async handle({ ctx, res, readBody }) {
      const { charge, qrCode } = await cashIn(ctx, actorOf(res), readBody());
      res.status(201).json(formatCashIn(charge, qrCode));
    },
  }),
];

export const chargeLocationOperations = [
  route({
    method: 'get',
    path: '/pix/qr/v2/{id}',
    tag: 'Charge location',
    auth: 'none',
    summary: "A charge's location (the URL inside its BR Code), as a payer's bank reads it",
    responses: { 200: ok(R.chargeLocationSchema), 404: NOT_FOUND },
    handle({ ctx, req, res }) {
      res.json(formatLocation(getCharge(ctx.store, uuidParam(req, 'id'))));
    },
  }),
];
