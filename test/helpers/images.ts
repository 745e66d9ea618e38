// PNG images for the image-decoding tests, written without decoding anything: an 8-bit greyscale PNG
// built row by row (so a 36-megapixel image costs its test a 36 MB buffer, not 144 MB of RGBA), blank
// or with a QR code drawn in it.
import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A greyscale PNG of `width` × `height`, white, with `paint(x, y)` true pixels black. */
export function greyPng(width: number, height: number, paint: (x: number, y: number) => boolean = () => false): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const stride = width + 1;
  const raw = Buffer.alloc(stride * height, 255);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < width; x++) if (paint(x, y)) raw[y * stride + 1 + x] = 0;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `text` as a QR code of `scale` pixels a module, in the middle of a white `side` × `side` image. */
export function qrInPng(text: string, side: number, scale = 8): Buffer {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const origin = Math.floor((side - n * scale) / 2);
  return greyPng(side, side, (x, y) => {
    const mx = Math.floor((x - origin) / scale);
    const my = Math.floor((y - origin) / scale);
    return mx >= 0 && my >= 0 && mx < n && my < n && qr.modules.get(my, mx) === 1;
  });
}

export const pngDataUrl = (png: Buffer): string => `data:image/png;base64,${png.toString('base64')}`;
