import jsQRImport from 'jsqr';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../src/domain/brcode.js';
import { renderQrDataUrl, renderQrPng } from '../../src/format/qr.js';

type JsQR = typeof jsQRImport.default;
// jsqr's types declare an ES default export, but its UMD bundle sets module.exports to the function.
const jsQR: JsQR = (jsQRImport as unknown as { default?: JsQR }).default ?? (jsQRImport as unknown as JsQR);

function decode(png: Buffer): { width: number; height: number; text: string | null; grayscale: boolean } {
  const image = PNG.sync.read(png);
  // pngjs hands back RGBA whatever the source; jsQR wants exactly that.
  const rgba = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const result = jsQR(rgba, image.width, image.height);
  return { width: image.width, height: image.height, text: result?.data ?? null, grayscale: png[25] === 0 };
}

const code = buildDynamicBrCode({
  location: 'localhost:8080/pix/qr/v2/3f2b6c1e-9a4d-4e8f-b1c2-7d5e6f8a9b0c',
  amountCents: 123456,
  merchantName: 'Padaria São João',
  merchantCity: 'São Paulo',
});

describe('renderQrDataUrl', () => {
  it('is a PNG data URL that decodes to exactly the BR Code', () => {
    expect(code.length).toBeGreaterThan(140);
    const url = renderQrDataUrl(code);
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const decoded = decode(png);
    expect(decoded.text).toBe(code);
    expect(decoded.width).toBeGreaterThanOrEqual(200);
    expect(decoded.height).toBe(decoded.width);
    expect(decoded.grayscale).toBe(true);
  });

  it('decodes for short and long texts, with an integer scale and a white 4-module quiet zone', () => {
    for (const text of ['x', 'https://example.com/' + 'a'.repeat(300), code.toLowerCase()]) {
      const png = renderQrPng(text);
      const decoded = decode(png);
      expect(decoded.text).toBe(text);
      expect(decoded.width).toBeGreaterThanOrEqual(200);
      const size = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size;
      const scale = decoded.width / (size + 8);
      expect(Number.isInteger(scale)).toBe(true);
      const image = PNG.sync.read(png);
      const gray = (x: number, y: number) => image.data[(y * image.width + x) * 4];
      const margin = 4 * scale;
      for (let a = 0; a < image.width; a++) {
        for (let b = 0; b < margin; b++) {
          for (const [x, y] of [
            [a, b],
            [b, a],
            [a, image.width - 1 - b],
            [image.width - 1 - b, a],
          ] as const) {
            expect(gray(x, y)).toBe(255);
          }
        }
      }
      // The top-left finder pattern starts right after the margin and is always dark.
      expect(gray(margin, margin)).toBe(0);
      expect(gray(margin + scale - 1, margin + scale - 1)).toBe(0);
    }
  });

  it('is deterministic', () => {
    expect(renderQrDataUrl(code)).toBe(renderQrDataUrl(code));
  });
});
