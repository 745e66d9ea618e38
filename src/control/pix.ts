// POST /_sandbox/pix/pay (docs/control-api.md): pays a copy-and-paste code as a payer's bank
// would, or the QR code in an image as a payer's app would after scanning it. The bank parses the
// BR Code, checks its CRC, follows its location (item 26/25) to the charge and pays it. Only this
// sandbox's charge locations can be followed; a code that does not parse is a VALIDATION_ERROR
// naming the reason, a location that leads nowhere is 404.
import type { AppContext } from '../context.js';
import { parseBrCode, PIX_GUI } from '../domain/brcode.js';
import { SandboxError, notFound } from '../domain/errors.js';
import { formatTransaction } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import { PIX_PAY_BODY_LIMIT, pixPaySchema, type PixPayBody } from '../schemas/control.js';
import { payCharge } from '../services/charges.js';
import type { Reads } from '../store/store.js';
import { imageOf, qrTextOf } from './qr-image.js';

const LOCATION_ID = /\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/?$/;

/** Where a code came from, for the error that names it. */
type Source = 'pixCode' | 'qrImage';

const invalidIn = (source: Source) => (reason: string) =>
  new SandboxError(
    'VALIDATION_ERROR',
    `${source === 'pixCode' ? 'pixCode' : 'the QR code in qrImage'} is not a payable PIX code: ${reason}`,
    [{ path: `/${source}`, message: reason }],
  );

/** The id of the charge a code belongs to; throws when the code cannot be paid. */
export function chargeIdOfCode(data: Reads, pixCode: string, source: Source = 'pixCode'): string {
  const invalid = invalidIn(source);
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
  routes.post('/_sandbox/pix/pay', parseBody(false, PIX_PAY_BODY_LIMIT), async (req, res) => {
    const body = readBody<PixPayBody>(req, res, pixPaySchema);
    // the schema lets exactly one of the two through; the image is read before the store is
    const id =
      body.qrImage !== undefined
        ? await qrTextOf(imageOf(body.qrImage)).then((code) => chargeIdOfCode(ctx.store, code, 'qrImage'))
        : chargeIdOfCode(ctx.store, body.pixCode!);
    const charge = await ctx.store.commit((tx) => payCharge(tx, ctx, id, body.payer));
    res.json(formatTransaction(charge));
  });
}
