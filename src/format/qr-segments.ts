// The split of a text into QR segments (numeric, alphanumeric, byte) that takes fewest bits.
// qrcode finds one by a graph search over every run of every mode (Dijkstra, ~70 % of its time
// for a BR Code); a dynamic programme over the characters finds a split at least as short in
// linear time (the approach of Project Nayuki's QR generator, written here for qrcode's segments).
import type { QRCodeSegment } from 'qrcode';

type Mode = 'numeric' | 'alphanumeric' | 'byte';
const MODES: readonly Mode[] = ['numeric', 'alphanumeric', 'byte'];
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

// Character-count field widths per mode, for versions 1–9, 10–26 and 27–40.
export const COUNT_BITS: readonly (readonly [number, number, number])[] = [
  [10, 9, 8],
  [12, 11, 16],
  [14, 13, 16],
];
// Costs in sixths of a bit, so that numeric (10 bits per 3 digits) and alphanumeric (11 bits per
// 2 characters) stay integers; a partial last group is counted at the same rate, close enough.
const SIXTHS_NUMERIC = 20;
const SIXTHS_ALPHANUMERIC = 33;
const SIXTHS_BYTE = 48;

function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** The cheapest split of `text` into numeric, alphanumeric and byte segments (dynamic programming over characters). */
export function segmentsOf(text: string, countBits: readonly [number, number, number] = COUNT_BITS[0]!): QRCodeSegment[] {
  const chars = Array.from(text);
  const header = countBits.map((bits) => (4 + bits) * 6);
  // cost[m]: the cheapest encoding of the characters so far whose last one is in mode m;
  // from[i * 3 + m]: the mode of character i - 1 on that cheapest path.
  let cost = [Infinity, Infinity, Infinity];
  const from = new Uint8Array(chars.length * 3);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const digit = ch >= '0' && ch <= '9';
    const step = [
      digit ? SIXTHS_NUMERIC : Infinity,
      digit || ALPHANUMERIC.includes(ch) ? SIXTHS_ALPHANUMERIC : Infinity,
      SIXTHS_BYTE * utf8Length(ch.codePointAt(0)!),
    ];
    const next = [Infinity, Infinity, Infinity];
    for (let m = 0; m < 3; m++) {
      if (step[m] === Infinity) continue;
      let best = i === 0 ? header[m]! : Infinity;
      for (let p = 0; i > 0 && p < 3; p++) {
        const c = cost[p]! + (p === m ? 0 : header[m]!);
        if (c < best) {
          best = c;
          from[i * 3 + m] = p;
        }
      }
      next[m] = best + step[m]!;
    }
    cost = next;
  }
  let mode = cost.indexOf(Math.min(...cost));
  const segments: QRCodeSegment[] = [];
  let end = chars.length;
  for (let i = chars.length - 1; i >= 0; i--) {
    const prev = i > 0 ? from[i * 3 + mode]! : -1;
    if (prev !== mode) {
      segments.push({ mode: MODES[mode]!, data: chars.slice(i, end).join('') } as QRCodeSegment);
      end = i;
    }
    mode = prev;
  }
  return segments.reverse();
}
