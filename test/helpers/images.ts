// PNG images for the image-decoding tests, written without decoding anything: 8-bit greyscale (so a
// 36-megapixel image costs its test a 36 MB buffer, not 144 MB of RGBA), blank or with a QR code in it.
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/** A greyscale PNG of `width` × `height`, white, with `paint(x, y)` true pixels black. */
export function greyPng(width: number, height: number, paint: (x: number, y: number) => boolean = () => false): Buffer {
  const data = Buffer.alloc(width * height, 255);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (paint(x, y)) data[y * width + x] = 0;
  // no filter search, fast deflate: these images are large and plain
  return PNG.sync.write({ width, height, data } as PNG, {
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
    filterType: 0,
    deflateLevel: 1,
  });
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
