import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import jsQRImport from 'jsqr';
import { PNG } from 'pngjs';
import QRCode, { type QRCodeMaskPattern } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../src/domain/brcode.js';
import { penalty } from '../../src/format/qr-mask.js';
import { segmentsOf } from '../../src/format/qr-segments.js';
import { matrixToPng, qrMatrix, renderQrDataUrl, renderQrPng } from '../../src/format/qr.js';

type JsQR = typeof jsQRImport.default;
// jsqr's types declare an ES default export, but its UMD bundle sets module.exports to the function.
const jsQR: JsQR = (jsQRImport as unknown as { default?: JsQR }).default ?? (jsQRImport as unknown as JsQR);

// qrcode's own penalty rules, from the module its getBestMask uses (not part of its typed API)
interface QrcodeMatrix {
  size: number;
  data: Uint8Array;
}
const qrcodeMasks = createRequire(import.meta.url)('qrcode/lib/core/mask-pattern.js') as Record<
  'getPenaltyN1' | 'getPenaltyN2' | 'getPenaltyN3' | 'getPenaltyN4',
  (m: QrcodeMatrix & { get(r: number, c: number): number }) => number
>;
function qrcodePenalty({ size, data }: QrcodeMatrix): number {
  const m = { size, data, get: (r: number, c: number) => data[r * size + c]! };
  return qrcodeMasks.getPenaltyN1(m) + qrcodeMasks.getPenaltyN2(m) + qrcodeMasks.getPenaltyN3(m) + qrcodeMasks.getPenaltyN4(m);
}

function decode(png: Buffer): { width: number; height: number; text: string | null; bitDepth: number; colourType: number } {
  const image = PNG.sync.read(png);
  // pngjs hands back RGBA whatever the source; jsQR wants exactly that.
  const rgba = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const result = jsQR(rgba, image.width, image.height);
  return { width: image.width, height: image.height, text: result?.data ?? null, bitDepth: png[24]!, colourType: png[25]! };
}

const brCode = (amountCents = 123456) =>
  buildDynamicBrCode({
    location: `localhost:8080/pix/qr/v2/${randomUUID()}`,
    amountCents,
    merchantName: 'Padaria São João',
    merchantCity: 'São Paulo',
  });
const code = brCode();
const brCodes = Array.from({ length: 60 }, (_, i) => brCode(1 + i * 104_729));
const others = [
  'x',
  '0'.repeat(40),
  'https://example.com/' + 'a'.repeat(300),
  code.toLowerCase(),
  'Olá, pão de queijo ☕',
  'A1'.repeat(400),
];

describe('renderQrDataUrl', () => {
  it('is a 1-bit grayscale PNG data URL that decodes to exactly the BR Code', () => {
    expect(code.length).toBeGreaterThan(140);
    const url = renderQrDataUrl(code);
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const decoded = decode(png);
    expect(decoded.text).toBe(code);
    expect(decoded.width).toBeGreaterThanOrEqual(200);
    expect(decoded.height).toBe(decoded.width);
    expect([decoded.bitDepth, decoded.colourType]).toEqual([1, 0]);
  });

  it('decodes for every BR Code of a run of charges and for short, long and non-ASCII texts', () => {
    for (const text of [...brCodes, ...others]) expect(decode(renderQrPng(text)).text).toBe(text);
  });

  it('draws with an integer scale, a white 4-module quiet zone and the modules exactly where the matrix has them', () => {
    for (const text of ['x', code, 'https://example.com/' + 'a'.repeat(300)]) {
      const png = renderQrPng(text);
      const { size, data } = qrMatrix(text);
      const image = PNG.sync.read(png);
      expect(image.width).toBeGreaterThanOrEqual(200);
      const scale = image.width / (size + 8);
      expect(Number.isInteger(scale)).toBe(true);
      const gray = (x: number, y: number) => image.data[(y * image.width + x) * 4];
      for (let y = 0; y < image.width; y++) {
        for (let x = 0; x < image.width; x++) {
          const row = Math.floor(y / scale) - 4;
          const col = Math.floor(x / scale) - 4;
          const dark = row >= 0 && row < size && col >= 0 && col < size && data[row * size + col] === 1;
          if (gray(x, y) !== (dark ? 0 : 255)) throw new Error(`pixel (${x}, ${y}) of "${text.slice(0, 20)}" is ${gray(x, y)}`);
        }
      }
    }
  });

  it('is deterministic', () => {
    expect(renderQrDataUrl(code)).toBe(renderQrDataUrl(code));
  });
});

describe('qrMatrix', () => {
  it("is qrcode's own default matrix for the same segments: the mask it picks by the standard's penalty", () => {
    for (const text of [...brCodes, ...others]) {
      const ours = qrMatrix(text);
      const theirs = QRCode.create(segmentsOf(text), { errorCorrectionLevel: 'M' }).modules;
      expect(ours.size).toBe(theirs.size);
      expect(Buffer.from(ours.data).equals(Buffer.from(theirs.data))).toBe(true);
    }
  });

  it("is never a larger symbol than qrcode's own split of the text gives", () => {
    for (const text of [...brCodes, ...others]) {
      expect(qrMatrix(text).size).toBeLessThanOrEqual(QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size);
    }
  });

  it('splits a BR Code into numeric, byte and alphanumeric runs', () => {
    const modes = segmentsOf(code).map((s) => s.mode);
    expect(modes).toContain('numeric');
    expect(modes).toContain('byte');
    expect(modes).toContain('alphanumeric');
    expect(
      segmentsOf(code)
        .map((s) => s.data as string)
        .join(''),
    ).toBe(code);
    expect(
      segmentsOf('Olá ☕ 123')
        .map((s) => s.data as string)
        .join(''),
    ).toBe('Olá ☕ 123');
  });
});

describe('masks', () => {
  it("score exactly as qrcode's penalty rules score them, for every mask", () => {
    for (const text of [...brCodes.slice(0, 10), ...others]) {
      for (let mask = 0; mask < 8; mask++) {
        const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M', maskPattern: mask as QRCodeMaskPattern }).modules;
        expect(penalty(size, data)).toBe(qrcodePenalty({ size, data }));
      }
    }
  });

  it('every mask of a BR Code decodes when drawn by this renderer (so no choice of mask can make an unreadable image)', () => {
    for (const text of brCodes.slice(0, 5)) {
      for (let mask = 0; mask < 8; mask++) {
        const { size, data } = QRCode.create(segmentsOf(text), {
          errorCorrectionLevel: 'M',
          maskPattern: mask as QRCodeMaskPattern,
        }).modules;
        expect(decode(matrixToPng(size, data)).text).toBe(text);
      }
    }
  });
});
