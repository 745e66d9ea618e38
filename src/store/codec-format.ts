// The packed format shared by the codec's writer (codec.ts) and reader (codec-read.ts): one tag
// byte per value, then its bytes. The tables (key lists of objects, interned strings) belong to
// one Codec and only grow: an index into them stays valid for the life of the store.

export const T = {
  NULL: 0,
  FALSE: 1,
  TRUE: 2,
  UNDEFINED: 3,
  UINT: 4,
  NEGINT: 5,
  FLOAT: 6,
  LATIN1: 7,
  UTF16: 8,
  INTERNED: 9,
  UUID: 10,
  DATE: 11,
  /** the record's own id (the key it is stored under), written as this one byte */
  KEY: 12,
  ARRAY: 13,
  /** an object whose list of keys is in the shape table */
  SHAPED: 14,
  /** an object written key by key (the shape table is full) */
  KEYED: 15,
  /** a string with a UUID inside: text before, 16 bytes, text after */
  WITH_UUID: 16,
  /** a lower-case hex string (a digest): half its length in bytes */
  HEX: 17,
} as const;

export interface Tables {
  shapes: string[][];
  strings: string[];
}

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;

/**
 * Writes the 16 bytes of a lower-case canonical UUID into `out` at `at`; false (having written
 * part of them, perhaps) for anything else.
 */
export function uuidToBytes(id: string, out: Uint8Array, at: number): boolean {
  if (id.length !== 36 || id.charCodeAt(8) !== 45 || id.charCodeAt(13) !== 45 || id.charCodeAt(18) !== 45 || id.charCodeAt(23) !== 45)
    return false;
  for (let i = 0; i < 36; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) i++;
    const a = id.charCodeAt(i);
    const b = id.charCodeAt(i + 1);
    const hi = a < 128 ? HEX_VALUE[a]! : -1;
    const lo = b < 128 ? HEX_VALUE[b]! : -1;
    if (hi < 0 || lo < 0) return false;
    out[at++] = (hi << 4) | lo;
  }
  return true;
}

const uuidText = Buffer.alloc(36);
const HEX_CODES = new TextEncoder().encode('0123456789abcdef');

/** The canonical text of the 16 bytes at `start`: one flat string. */
export function uuidFromBytes(bytes: Uint8Array, start: number): string {
  let o = 0;
  for (let i = 0; i < 16; i++) {
    const b = bytes[start + i]!;
    uuidText[o++] = HEX_CODES[b >> 4]!;
    uuidText[o++] = HEX_CODES[b & 15]!;
    if (i === 3 || i === 5 || i === 7 || i === 9) uuidText[o++] = 45; // '-'
  }
  return uuidText.toString('latin1');
}
