// POST /v1/banking/cash-in/pix (spec "cash-in"), and the charge's location: the URL inside its
// BR Code (item 26/25), which a payer's bank reads without credentials.
import { notFound } from '../domain/errors.js';
import { formatCashIn, formatLocation } from '../format/transactions.js';
import { renderQrDataUrl } from '../format/qr.js';
import { principalOf, type AuthPrincipal } from '../http/auth.js';
import { route } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { cashInChecks } from '../schemas/checks.js';
import { created, e, NOT_FOUND, ok } from '../schemas/operation.js';
import { cashInSchema, type CashInBody } from '../schemas/public.js';
import * as R from '../schemas/responses.js';
import { createCharge, type Actor } from '../services/charges.js';
import type { Charge } from '../store/model.js';

export const actorOf = (p: AuthPrincipal): Actor => ({ accountId: p.account.id, merchantId: p.merchant?.id ?? null });

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
      const body = readBody();
      let charge: Charge | undefined;
      const durable = ctx.store.commit((tx) => (charge = createCharge(tx, ctx, actorOf(principalOf(res)), body)));
      // the change is applied at once; its PNG is drawn while the write is under way (and never
      // stored: pixCode is enough). A refused change leaves `charge` unset and `durable` rejected.
      const qrCode = charge ? renderQrDataUrl(charge.pixCode) : '';
      await durable;
      res.status(201).json(formatCashIn(charge!, qrCode));
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
      const id = uuidParam(req, 'id');
      const t = ctx.store.transactions.get(id);
      if (!t || t.type !== 'CASH_IN') throw notFound(`charge ${id}`);
      res.json(formatLocation(t));
    },
  }),
];
