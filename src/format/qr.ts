// QR code images for charges. The qrcode package builds the module matrix (data bits,
// Reed-Solomon, function patterns); the two choices that were most of its cost are made here
// (qr-segments.ts, qr-mask.ts), and the matrix is drawn as a 1-bit grayscale PNG: qrcode's own
// PNG path writes RGBA through a general-purpose encoder, whereas one bit per pixel, with every
// repeated scanline a zero line under filter Up, leaves deflate ~7 kB of mostly zeros.
import QRCode from 'qrcode';
import * as zlib from 'node:zlib';
import { withBestMask } from './qr-mask.js';
import { COUNT_BITS, segmentsOf } from './qr-segments.js';

const QUIET_ZONE = 4;
const MIN_WIDTH_PX = 200;
const FILTER_NONE = 0;
const FILTER_UP = 2;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let crcTable: Uint32Array | undefined;

function crc32Fallback(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = (crcTable[(crc ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// zlib.crc32 is native but only exists from Node 20.15 / 22.2.
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const crc32: (data: Uint8Array) => number = typeof nativeCrc32 === 'function' ? (d) => nativeCrc32(d) : crc32Fallback;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export interface QrMatrix {
  /** modules per side */
  size: number;
  /** row-major, 1 = dark */
  data: Uint8Array;
}

/** The QR code (error correction level M) of `text`: the same matrix as qrcode's default, when its split is as short. */
export function qrMatrix(text: string): QrMatrix {
  let symbol = QRCode.create(segmentsOf(text), { errorCorrectionLevel: 'M', maskPattern: 0 });
  // past version 9 the count fields are wider, which may favour another split
  const group = symbol.version < 10 ? 0 : symbol.version < 27 ? 1 : 2;
  if (group > 0) symbol = QRCode.create(segmentsOf(text, COUNT_BITS[group]), { errorCorrectionLevel: 'M', maskPattern: 0 });
  const { size, data, reservedBit } = symbol.modules;
  return { size, data: withBestMask(size, data, reservedBit) };
}

/** A PNG (1-bit grayscale) of the QR code of `text`, at least 200 px wide with a 4-module margin. */
export function renderQrPng(text: string): Buffer {
  const { size, data } = qrMatrix(text);
  return matrixToPng(size, data);
}

/** Draws a square module matrix (row-major, non-zero = dark) as a 1-bit grayscale PNG (0 = black). */
export function matrixToPng(size: number, data: ArrayLike<number>): Buffer {
  const modules = size + 2 * QUIET_ZONE;
  const scale = Math.ceil(MIN_WIDTH_PX / modules);
  const width = modules * scale;
  const stride = 1 + Math.ceil(width / 8); // a filter-type byte starts every scanline
  // all light, and every scanline a repeat of the one above (filter Up, all zeros) …
  const raw = Buffer.alloc(width * stride);
  for (let y = 0; y < width; y++) raw[y * stride] = FILTER_UP;
  const blank = Buffer.alloc(stride, 0xff);
  blank[0] = FILTER_NONE;
  blank.copy(raw, 0);
  // … but the first scanline of each module row, written plainly
  for (let row = 0; row < size; row++) {
    const line = (QUIET_ZONE + row) * scale * stride;
    blank.copy(raw, line);
    for (let col = 0; col < size; col++) {
      if (!data[row * size + col]) continue;
      for (let x = (QUIET_ZONE + col) * scale, end = x + scale; x < end; x++) raw[line + 1 + (x >>> 3)]! &= ~(0x80 >>> (x & 7));
    }
  }
  // the first light scanline after the symbol (the top margin is covered by the first line)
  blank.copy(raw, (QUIET_ZONE + size) * scale * stride);

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // colour type: grayscale; compression, filter and interlace methods stay 0
  const idat = zlib.deflateSync(raw, { level: 1, strategy: zlib.constants.Z_RLE });
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** `data:image/png;base64,…` of the QR code of `text`. */
export function renderQrDataUrl(text: string): string {
  return `data:image/png;base64,${renderQrPng(text).toString('base64')}`;
}
