import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../src/domain/brcode.js';
import { renderQrDataUrl, renderQrPng } from '../../src/format/qr.js';

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

  it('decodes for short and long texts, and keeps a white quiet zone', () => {
    for (const text of ['x', 'https://example.com/' + 'a'.repeat(300), code.toLowerCase()]) {
      const png = renderQrPng(text);
      const decoded = decode(png);
      expect(decoded.text).toBe(text);
      expect(decoded.width).toBeGreaterThanOrEqual(200);
      const image = PNG.sync.read(png);
      const scale = Math.floor(decoded.width / 200) || 1;
      for (let i = 0; i < 4 * scale; i++) {
        expect(image.data[(i * image.width + i) * 4]).toBe(255);
        expect(image.data[(image.width * 4 * scale) * 4 + i * 4]).toBe(255);
      }
    }
  });

  it('is deterministic', () => {
    expect(renderQrDataUrl(code)).toBe(renderQrDataUrl(code));
  });
});
