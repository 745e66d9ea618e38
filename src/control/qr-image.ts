// The QR code in an image a test sends (POST /_sandbox/pix/pay {qrImage}): a PNG or JPEG, as a
// data URL or bare base64, anywhere in it (a screenshot of a whole page), read by jsQR after
// pngjs or jpeg-js have decoded the pixels.
// Reading a full-page screenshot is 0.1–0.5 s of CPU (docs/control-api.md), far too long for the
// event loop that answers the API. So only the cheap checks run here (the data URL, the base64,
// the size, the format and the pixel count from the file's header); the decoding runs in a
// worker thread, started for the one image and ended with it (its memory goes with it). At most
// QR_DECODERS images are decoded at once and QR_QUEUE wait their turn; one more is told to come
// back (503 BUSY, Retry-After), so that a burst of images holds a bounded amount of memory
// (docs/decisions.md#d73-image-decoding-is-bounded). The worker is given its code as
// source text (the function below, which therefore closes over nothing) and the paths of the
// three packages: that works alike from src/ under vitest, from dist/src and from the bundle in
// dist/bin, where a worker file of its own would sit at a different place each time.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BUSY_RETRY_AFTER_SECONDS, SandboxError } from '../domain/errors.js';
import { QR_IMAGE_MAX_BYTES } from '../schemas/control.js';

/**
 * Pixels decoded at most (4,000 × 4,000, a 2× screenshot of a page 6,000 px long): a small file can
 * hold a huge image, and decoding one takes about 20 bytes of memory a pixel (a 16-megapixel one 300 MB).
 */
const QR_IMAGE_MAX_PIXELS = 16_000_000;
/** images decoded at once, each in a worker of its own */
export const QR_DECODERS = 2;
/** images waiting for a decoder; the next is answered 503 BUSY */
export const QR_QUEUE = 8;
// below the 15 s that the CLI waits for an answer (the typed clients wait 30 s)
const DECODE_TIMEOUT_MS = 10_000;
const MIB = 1024 * 1024;

const invalid = (message: string, detail: string): SandboxError =>
  new SandboxError('VALIDATION_ERROR', message, [{ path: '/qrImage', message: detail }]);

type Format = 'png' | 'jpeg';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The image's bytes and format; throws 400 (not an image, not base64) or 413 (too large) before any decoding. */
export function imageOf(value: string): { bytes: Buffer; format: Format; width: number; height: number } {
  let base64 = value;
  const url = DATA_URL.exec(value.slice(0, 200));
  if (url) {
    const type = url[1]!.toLowerCase();
    if (!/^image\/(png|jpeg|jpg)$/.test(type))
      throw invalid(`qrImage is a data URL of ${type || 'no type'}; send a PNG or JPEG image`, 'must be a PNG or JPEG image');
    if (!url[2]!.toLowerCase().split(';').includes('base64'))
      throw invalid('qrImage is a data URL without ;base64; send the image as base64', 'must be base64');
    base64 = value.slice(url[0].length);
  } else if (value.startsWith('data:')) throw invalid('qrImage is not a well-formed data URL', 'must be a data URL or bare base64');
  if (/\s/.test(base64)) base64 = base64.replace(/\s+/g, ''); // wrapped lines, as `base64` prints them
  if (!BASE64.test(base64) || base64.length % 4 === 1)
    throw invalid('qrImage is neither a data URL nor base64 text', 'must be a data URL (data:image/png;base64,…) or bare base64');
  const size = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  if (size > QR_IMAGE_MAX_BYTES)
    throw new SandboxError('PAYLOAD_TOO_LARGE', `qrImage is ${(size / MIB).toFixed(1)} MiB; images of at most 5 MiB are read`, [
      { path: '/qrImage', message: `must be at most ${QR_IMAGE_MAX_BYTES} bytes (5 MiB) decoded` },
    ]);
  const bytes = Buffer.from(base64, 'base64');
  const header = headerOf(bytes);
  if (header.width * header.height > QR_IMAGE_MAX_PIXELS)
    throw invalid(
      `qrImage is ${header.width}×${header.height} pixels; images of at most ${QR_IMAGE_MAX_PIXELS / 1e6} million pixels are read (the limit is checked from the image's header, before decoding)`,
      `must have at most ${QR_IMAGE_MAX_PIXELS} pixels (${QR_IMAGE_MAX_PIXELS / 1e6} million)`,
    );
  return { bytes, ...header };
}

/** The format and size, from the PNG header or the JPEG's start-of-frame segment. */
function headerOf(b: Buffer): { format: Format; width: number; height: number } {
  if (b.length >= 24 && b.subarray(0, 8).equals(PNG_SIGNATURE) && b.toString('latin1', 12, 16) === 'IHDR')
    return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    // walk the segments to a start of frame (SOF0–SOF15 except DHT, JPG and DAC)
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) break;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i++;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { format: 'jpeg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      i += 2 + b.readUInt16BE(i + 2);
    }
    throw invalid('qrImage is a JPEG image whose size cannot be read (no frame header)', 'must be a complete JPEG image');
  }
  const start = b.subarray(0, 8).toString('hex');
  throw invalid(`qrImage is neither a PNG nor a JPEG image (it starts with bytes ${start || 'nothing'})`, 'must be a PNG or JPEG image');
}

/** What the worker answers: the text of the first QR code found, or why there is none. */
type Outcome = { text: string } | { error: 'unreadable'; reason: string } | { error: 'no-code' };

/**
 * A sandbox's decoders (kept in its context): QR_DECODERS images at once, QR_QUEUE waiting, and a
 * 503 BUSY for the next. A finished decode hands its place to the first image waiting.
 */
export class DecodePool {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  async decode(image: { bytes: Buffer; format: Format }): Promise<Outcome> {
    if (this.#running < QR_DECODERS) this.#running++;
    else if (this.#waiting.length < QR_QUEUE) await new Promise<void>((take) => this.#waiting.push(take));
    else
      throw new SandboxError(
        'BUSY',
        `${QR_DECODERS} images are being decoded and ${QR_QUEUE} wait; send this one again in ${BUSY_RETRY_AFTER_SECONDS} s (Retry-After)`,
      );
    try {
      return await decodeInWorker(image);
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/** The text of the QR code in the image; 400 when the image cannot be read or holds no QR code, 503 while the decoders are full. */
export async function qrTextOf(pool: DecodePool, image: { bytes: Buffer; format: Format }): Promise<string> {
  const outcome = await pool.decode(image);
  if ('text' in outcome) return outcome.text;
  const kind = image.format === 'png' ? 'PNG' : 'JPEG';
  if (outcome.error === 'unreadable')
    throw invalid(`qrImage could not be decoded as a ${kind} image: ${outcome.reason}`, `must be a valid ${kind} image`);
  throw invalid('no QR code was found in qrImage (or none that could be decoded)', 'must show a QR code');
}

const load = createRequire(import.meta.url);

function decodeInWorker({ bytes, format }: { bytes: Buffer; format: Format }): Promise<Outcome> {
  const copy = new Uint8Array(bytes); // its own ArrayBuffer, handed over to the worker without a copy
  const worker = new Worker(`(${workerMain.toString()})(require);`, {
    eval: true,
    workerData: {
      bytes: copy,
      format,
      maxPixels: QR_IMAGE_MAX_PIXELS,
      paths: { jsqr: load.resolve('jsqr'), pngjs: load.resolve('pngjs'), jpeg: load.resolve('jpeg-js') },
    } satisfies WorkerInput,
    transferList: [copy.buffer],
    // the pixels live outside the heap; this bounds what jsQR's own arrays and objects may take
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  return new Promise<Outcome>((resolve) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ error: 'unreadable', reason: `decoding took longer than ${DECODE_TIMEOUT_MS / 1000} s` });
    }, DECODE_TIMEOUT_MS);
    const done = (o: Outcome) => {
      clearTimeout(timer);
      resolve(o);
    };
    worker.once('message', (o: Outcome) => done(o));
    worker.once('error', (e) => done({ error: 'unreadable', reason: e.message }));
    worker.once('exit', () => done({ error: 'unreadable', reason: 'the decoder stopped without an answer' }));
  });
}

interface WorkerInput {
  bytes: Uint8Array;
  format: Format;
  maxPixels: number;
  paths: { jsqr: string; pngjs: string; jpeg: string };
}

/** Runs in the worker, from its source text: everything it uses comes through `require` and workerData. */
function workerMain(require: NodeJS.Require): void {
  const threads = require('node:worker_threads') as typeof import('node:worker_threads');
  const input = threads.workerData as WorkerInput;
  const reply = (o: Outcome) => threads.parentPort!.postMessage(o);
  type JsQR = typeof import('jsqr').default;
  const jsqrModule = require(input.paths.jsqr) as JsQR | { default: JsQR };
  const jsQR = typeof jsqrModule === 'function' ? jsqrModule : jsqrModule.default;

  let image: { width: number; height: number; data: Uint8Array };
  try {
    const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
    if (input.format === 'png') image = (require(input.paths.pngjs) as typeof import('pngjs')).PNG.sync.read(bytes);
    else
      image = (require(input.paths.jpeg) as typeof import('jpeg-js')).decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: input.maxPixels / 1e6,
        maxMemoryUsageInMB: 512,
      });
  } catch (e) {
    reply({ error: 'unreadable', reason: (e as Error).message });
    return;
  }

  // at full size: a half-size copy of a 2× screenshot of the dashboard no longer decoded (its
  // modules, 5 or 6 pixels after the page's own scaling, blur into each other at half size)
  const text = jsQR(
    new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    image.width,
    image.height,
  )?.data;
  reply(text ? { text } : { error: 'no-code' });
}
