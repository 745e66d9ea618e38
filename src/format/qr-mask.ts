// The choice of a QR code's mask, made as qrcode makes it (the lowest penalty under the four
// rules of the standard, the first mask on a tie) but 32 modules at a time: qrcode scores the
// eight masks module by module through method calls, ~0.5 ms per code, most of a charge's cost.
// Any mask decodes; the penalty keeps patterns that mislead a reader (false finder patterns,
// large blocks of one colour) out of the image, so the choice is kept.

function maskBit(mask: number, r: number, c: number): boolean {
  switch (mask) {
    case 0:
      return (r + c) % 2 === 0;
    case 1:
      return r % 2 === 0;
    case 2:
      return c % 3 === 0;
    case 3:
      return (r + c) % 3 === 0;
    case 4:
      return (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0;
    case 5:
      return ((r * c) % 2) + ((r * c) % 3) === 0;
    case 6:
      return (((r * c) % 2) + ((r * c) % 3)) % 2 === 0;
    default:
      return (((r * c) % 3) + ((r + c) % 2)) % 2 === 0;
  }
}

// Masks are periodic: every one repeats every 12 rows and every 6 columns. So the modules a mask
// flips in row r, as bits over the columns, depend only on r mod 12 (ROW_FLIPS), and those it
// flips in column c, as bits over the rows, only on c mod 6 (COL_FLIPS). Lines are kept as bits,
// WORDS 32-bit words each, enough for the largest symbol (177 modules).
const WORDS = 6;
const ROW_FLIPS = new Int32Array(8 * 12 * WORDS);
const COL_FLIPS = new Int32Array(8 * 12 * WORDS);
for (let mask = 0; mask < 8; mask++) {
  for (let a = 0; a < 12; a++) {
    for (let b = 0; b < 32 * WORDS; b++) {
      if (maskBit(mask, a, b)) ROW_FLIPS[(mask * 12 + a) * WORDS + (b >>> 5)]! |= 1 << (b & 31);
      if (maskBit(mask, b, a)) COL_FLIPS[(mask * 12 + a) * WORDS + (b >>> 5)]! |= 1 << (b & 31);
    }
  }
}

/** The 15-bit format information for level M and `mask`: BCH(15,5), then XOR 0x5412. */
function formatBits(mask: number): number {
  const LEVEL_M = 0b00;
  const data = (LEVEL_M << 3) | mask;
  let rem = data << 10;
  for (let bit = 14; bit >= 10; bit--) if (rem & (1 << bit)) rem ^= 0x537 << (bit - 10);
  return ((data << 10) | rem) ^ 0x5412;
}

/** Calls `put(row, col, bit)` for the two copies of the format information and the dark module. */
function eachFormatModule(size: number, mask: number, put: (row: number, col: number, bit: number) => void): void {
  const bits = formatBits(mask);
  for (let i = 0; i < 15; i++) {
    const bit = (bits >> i) & 1;
    put(i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, 8, bit);
    put(8, i < 8 ? size - 1 - i : i === 8 ? 7 : 14 - i, bit);
  }
  put(size - 8, 8, 1);
}

/** A square matrix as bits: line a (a row, or a column) is words a * w … a * w + w - 1. */
interface Lines {
  size: number;
  w: number;
  rows: Int32Array;
  cols: Int32Array;
}

/** Room for the penalty's per-position words, allocated once per symbol. */
interface Scratch {
  same: Int32Array;
  core: Int32Array;
  light: Int32Array;
}

const scratchFor = (size: number): Scratch => ({ same: new Int32Array(size), core: new Int32Array(size), light: new Int32Array(size) });

function linesOf(size: number, modules: Uint8Array): Lines {
  const w = (size + 31) >>> 5;
  const rows = new Int32Array(size * w);
  const cols = new Int32Array(size * w);
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const bit = modules[r * size + c]! & 1;
      rows[r * w + (c >>> 5)]! |= bit << (c & 31);
      cols[c * w + (r >>> 5)]! |= bit << (r & 31);
    }
  }
  return { size, w, rows, cols };
}

/** `plain` with `mask` applied to the modules that `free` marks, and the format information of that mask. */
function masked(plain: Lines, free: Lines, mask: number, out: Lines): void {
  const { size, w } = plain;
  for (let a = 0; a < size; a++) {
    const row = (mask * 12 + (a % 12)) * WORDS;
    const col = (mask * 12 + (a % 6)) * WORDS;
    for (let j = 0, i = a * w; j < w; j++, i++) {
      out.rows[i] = plain.rows[i]! ^ (ROW_FLIPS[row + j]! & free.rows[i]!);
      out.cols[i] = plain.cols[i]! ^ (COL_FLIPS[col + j]! & free.cols[i]!);
    }
  }
  eachFormatModule(size, mask, (r, c, bit) => {
    const inRow = r * w + (c >>> 5);
    const inCol = c * w + (r >>> 5);
    out.rows[inRow] = (out.rows[inRow]! & ~(1 << (c & 31))) | (bit << (c & 31));
    out.cols[inCol] = (out.cols[inCol]! & ~(1 << (r & 31))) | (bit << (r & 31));
  });
}

/**
 * The matrix under the mask of lowest penalty. `modules` is qrcode's matrix under mask 0;
 * `reserved` marks its function modules, which masks leave alone.
 */
export function withBestMask(size: number, modules: Uint8Array, reserved: Uint8Array): Uint8Array {
  const free = linesOf(
    size,
    reserved.map((r) => r ^ 1),
  );
  const plain = linesOf(size, modules);
  masked(plain, free, 0, plain); // undoes mask 0 (and writes its format information again)
  const candidate: Lines = { size, w: plain.w, rows: new Int32Array(plain.rows.length), cols: new Int32Array(plain.cols.length) };
  const scratch = scratchFor(size);
  let best = 0;
  let lowest = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    masked(plain, free, mask, candidate);
    const p = penaltyOf(candidate, scratch);
    if (p < lowest) {
      lowest = p;
      best = mask;
    }
  }
  masked(plain, free, best, candidate);
  const out = new Uint8Array(size * size);
  for (let r = 0; r < size; r++)
    for (let c = 0; c < size; c++) out[r * size + c] = (candidate.rows[r * plain.w + (c >>> 5)]! >>> (c & 31)) & 1;
  return out;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The penalty of a module matrix (row-major, 1 = dark), as qrcode's getBestMask scores it. */
export function penalty(size: number, modules: Uint8Array): number {
  return penaltyOf(linesOf(size, modules), scratchFor(size));
}

/**
 * The penalty of the QR standard, scored as qrcode scores it: N1 runs of five or more of one
 * colour (3, plus 1 per module beyond five), N2 2×2 blocks of one colour (3 each), N3
 * 1:1:3:1:1 finder-like patterns with four light modules on one side (40 each), N4 the
 * distance of the dark share from one half (10 per 5 %).
 */
function penaltyOf(m: Lines, scratch: Scratch): number {
  const { size, w, rows } = m;
  let points = runsAndFinders(m, rows, scratch) + runsAndFinders(m, m.cols, scratch);
  let dark = 0;
  for (let r = 0; r < size; r++) {
    for (let j = 0, i = r * w; j < w; j++, i++) {
      dark += popcount(rows[i]!);
      if (r === size - 1) continue;
      // a block at (r, c): (r, c) = (r+1, c), (r, c+1) = (r+1, c+1) and (r, c) = (r, c+1)
      const next = j + 1 < w;
      const down = ~(rows[i]! ^ rows[i + w]!);
      const downRight = (down >>> 1) | (next ? ~(rows[i + 1]! ^ rows[i + w + 1]!) << 31 : 0);
      const right = ~(rows[i]! ^ ((rows[i]! >>> 1) | (next ? rows[i + 1]! << 31 : 0)));
      points += 3 * popcount(down & downRight & right & validBits(size - 1, j));
    }
  }
  return points + 10 * Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10);
}

/** The bits of word j that stand for positions below `limit`. */
function validBits(limit: number, j: number): number {
  const n = limit - 32 * j;
  return n >= 32 ? -1 : n <= 0 ? 0 : (1 << n) - 1;
}

/** N1 and N3 along one direction: `lines[a]` against `lines[a + 1]` …, every bit a line of the other direction. */
function runsAndFinders({ size, w }: Lines, lines: Int32Array, { same, core, light }: Scratch): number {
  let points = 0;
  // per position a, for the bits of one word: same[a], module a equals module a + 1; core[a],
  // dark-light-dark-dark-dark-light-dark from a; light[a], four light modules from a
  for (let j = 0; j < w; j++) {
    const valid = validBits(size, j);
    for (let a = 0; a < size; a++) {
      const x = lines[a * w + j]!;
      if (a + 1 < size) same[a] = ~(x ^ lines[(a + 1) * w + j]!) & valid;
      if (a + 6 < size) {
        const i = a * w + j;
        core[a] = x & ~lines[i + w]! & lines[i + 2 * w]! & lines[i + 3 * w]! & lines[i + 4 * w]! & ~lines[i + 5 * w]! & lines[i + 6 * w]!;
      }
      if (a + 3 < size) light[a] = ~(x | lines[(a + 1) * w + j]! | lines[(a + 2) * w + j]! | lines[(a + 3) * w + j]!) & valid;
    }
    for (let a = 0; a + 4 < size; a++) {
      // a window of five equal modules starting at a; a run of length L has L - 4 of them and scores L - 2
      const five = same[a]! & same[a + 1]! & same[a + 2]! & same[a + 3]!;
      const starts = a === 0 ? valid : ~same[a - 1]!;
      points += popcount(five) + 2 * popcount(five & starts);
    }
    for (let a = 0; a + 10 < size; a++) {
      const finders = (core[a]! & light[a + 7]!) | (light[a]! & core[a + 4]!);
      if (finders !== 0) points += 40 * popcount(finders);
    }
  }
  return points;
}
