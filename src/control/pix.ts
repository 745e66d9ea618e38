// POST /_sandbox/pix/pay (docs/control-api.md): pays a copy-and-paste code as a payer's bank
// would, or the QR code in an image as a payer's app would after scanning it. The bank parses the
// BR Code, checks its CRC, follows its location (item 26/25) to the charge and pays it. Only this
// sandbox's charge locations can be followed; a code that does not parse is a VALIDATION_ERROR
// naming the reason, a location that leads nowhere is 404.
import { parseBrCode, PIX_GUI } from '../domain/brcode.js';
import { SandboxError } from '../domain/errors.js';
import type { Tenant } from '../http/tenant.js';
import { formatTransaction } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { PIX_PAY_BODY_LIMIT, pixPaySchema, type PixPayBody } from '../schemas/control.js';
import { controlTag, e, INVALID_STATE, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { payCharge } from '../services/charges.js';
import type { Reads } from '../store/store.js';
import { DecodePool, imageOf, QR_DECODERS, QR_QUEUE, qrTextOf } from './qr-image.js';
import { own } from './scope.js';

const LOCATION_ID = /\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/?$/;

/** Where a code came from, for the error that names it. */
type Source = 'pixCode' | 'qrImage';

const invalidIn = (source: Source) => (reason: string) =>
  new SandboxError(
    'VALIDATION_ERROR',
    `${source === 'pixCode' ? 'pixCode' : 'the QR code in qrImage'} is not a payable PIX code: ${reason}`,
    [{ path: `/${source}`, message: reason }],
  );

/** The id of the charge a code belongs to; throws when the code cannot be paid (or, to a tenant's call, is another tenant's). */
function chargeIdOfCode(data: Reads, tenant: Tenant, pixCode: string, source: Source = 'pixCode'): string {
  const invalid = invalidIn(source);
  const code = pixCode.trim();
  const parsed = parseBrCode(code);
  if (!parsed.ok) throw invalid(parsed.reason);
  if ((parsed.merchantAccount['00'] ?? '').toLowerCase() !== PIX_GUI) throw invalid(`item 26 is not a ${PIX_GUI} account`);
  const location = parsed.merchantAccount['25'];
  if (!location) throw invalid('it is a static code (no location, item 26/25); only dynamic charge codes can be paid here');
  const id = LOCATION_ID.exec(location)?.[1]?.toLowerCase();
  const t = id ? data.transactions.get(id) : undefined;
  return own(tenant, t?.type === 'CASH_IN' ? t : undefined, `the charge at location ${location}`).id;
}

export const controlPixOperations = [
  adminRoute<PixPayBody>({
    method: 'post',
    path: '/_sandbox/pix/pay',
    tag: controlTag('transactions'),
    scope: 'tenant',
    summary: 'Pay whichever charge a copy-and-paste code, or the QR code in an image (PNG or JPEG), belongs to',
    body: pixPaySchema,
    bodyLimitBytes: PIX_PAY_BODY_LIMIT,
    responses: {
      200: ok(R.transactionSchema, 'The charge, PAID (the same answer and events as POST /_sandbox/charges/{id}/pay)'),
      400: e(
        'VALIDATION_ERROR',
        'neither or both of pixCode and qrImage; a code that is not a dynamic PIX charge code; qrImage not base64, ' +
          'not a PNG or JPEG, over 16 million pixels (read from its header), an image that cannot be decoded, or one in which no QR code is found (nothing changed)',
      ),
      404: e('NOT_FOUND', 'the code (typed or read from the image) leads to no charge of this sandbox (nothing changed)'),
      409: INVALID_STATE,
      413: e('PAYLOAD_TOO_LARGE', 'qrImage over 5 MiB decoded (nothing changed)'),
      503: {
        ...e('BUSY', `${QR_DECODERS} images are being decoded and ${QR_QUEUE} wait: send it again after Retry-After (nothing changed)`),
        headers: { 'Retry-After': { description: 'seconds to wait before sending it again', required: true, schema: { type: 'integer' } } },
      },
    },
    async handle({ ctx, res, readBody, tenant }) {
      const body = readBody();
      // the schema lets exactly one of the two through; the image is read before the store is
      const id =
        body.qrImage !== undefined
          ? await qrTextOf((ctx.qrDecoders ??= new DecodePool()), imageOf(body.qrImage)).then((code) =>
              chargeIdOfCode(ctx.store, tenant, code, 'qrImage'),
            )
          : chargeIdOfCode(ctx.store, tenant, body.pixCode!);
      const charge = await ctx.store.commit((tx) => payCharge(tx, ctx, id, body.payer));
      res.json(formatTransaction(charge));
    },
  }),
];
