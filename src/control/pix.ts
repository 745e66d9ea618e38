// POST /_sandbox/pix/pay (CONTRACT §6, §12): pays a copy-and-paste code as a payer's bank would.
// The bank parses the BR Code, checks its CRC, follows its location (item 26/25) to the charge
// and pays it. Only this sandbox's charge locations can be followed; a code that does not parse
// is a VALIDATION_ERROR naming the reason, a location that leads nowhere is 404.
import type { AppContext } from '../context.js';
import { parseBrCode, PIX_GUI } from '../domain/brcode.js';
import { SandboxError, notFound } from '../domain/errors.js';
import { formatTransaction } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import { pixPaySchema, type PixPayBody } from '../schemas/control.js';
import { payCharge } from '../services/charges.js';
import type { Reads } from '../store/store.js';

const LOCATION_ID = /\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/?$/;

const invalid = (reason: string) =>
  new SandboxError('VALIDATION_ERROR', `pixCode is not a payable PIX code: ${reason}`, [{ path: '/pixCode', message: reason }]);

/** The id of the charge a code belongs to; throws when the code cannot be paid. */
export function chargeIdOfCode(data: Reads, pixCode: string): string {
  const code = pixCode.trim();
  const parsed = parseBrCode(code);
  if (!parsed.ok) throw invalid(parsed.reason);
  if ((parsed.merchantAccount['00'] ?? '').toLowerCase() !== PIX_GUI) throw invalid(`item 26 is not a ${PIX_GUI} account`);
  const location = parsed.merchantAccount['25'];
  if (!location) throw invalid('it is a static code (no location, item 26/25); only dynamic charge codes can be paid here');
  const id = LOCATION_ID.exec(location)?.[1]?.toLowerCase();
  const t = id ? data.transactions.get(id) : undefined;
  if (!t || t.type !== 'CASH_IN') throw notFound(`the charge at location ${location}`);
  return t.id;
}

export function controlPixRoutes(routes: Routes, ctx: AppContext): void {
  routes.post('/_sandbox/pix/pay', parseBody(), async (req, res) => {
    const body = readBody<PixPayBody>(req, res, pixPaySchema);
    const id = chargeIdOfCode(ctx.store, body.pixCode);
    const charge = await ctx.store.commit((tx) => payCharge(tx, ctx, id, body.payer));
    res.json(formatTransaction(charge));
  });
}
