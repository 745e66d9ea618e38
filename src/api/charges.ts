// POST /v1/banking/cash-in/pix (spec "cash-in"), and the charge's location: the URL inside its
// BR Code (item 26/25), which a payer's bank reads without credentials.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { formatCashIn, formatLocation } from '../format/transactions.js';
import { renderQrDataUrl } from '../format/qr.js';
import { authenticate, principalOf, type AuthPrincipal } from '../http/auth.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import { cashInSchema, type CashInBody } from '../schemas/public.js';
import { cashInChecks } from '../schemas/checks.js';
import { createCharge, type Actor } from '../services/charges.js';
import type { Charge } from '../store/model.js';

export const actorOf = (p: AuthPrincipal): Actor => ({ accountId: p.account.id, merchantId: p.merchant?.id ?? null });

export function chargeRoutes(routes: Routes, ctx: AppContext): void {
  routes.post('/v1/banking/cash-in/pix', authenticate(ctx), parseBody(), async (req, res) => {
    const body = readBody<CashInBody>(req, res, cashInSchema, cashInChecks);
    let charge: Charge | undefined;
    const durable = ctx.store.commit((tx) => (charge = createCharge(tx, ctx, actorOf(principalOf(res)), body)));
    // the change is applied at once; its PNG is drawn while the write is under way (and never
    // stored: pixCode is enough). A refused change leaves `charge` unset and `durable` rejected.
    const qrCode = charge ? renderQrDataUrl(charge.pixCode) : '';
    await durable;
    res.status(201).json(formatCashIn(charge!, qrCode));
  });

  routes.get('/pix/qr/v2/:id', (req, res) => {
    const id = uuidParam(req, 'id');
    const t = ctx.store.transactions.get(id);
    if (!t || t.type !== 'CASH_IN') throw notFound(`charge ${id}`);
    res.json(formatLocation(t));
  });
}
