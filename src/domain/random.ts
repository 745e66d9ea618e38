// Seeded randomness: the same sequence for the same seed on every platform, so that fault
// probabilities, generated key owners and test walks can be replayed.

/** mulberry32: small and fast; good enough for simulation, never for secrets. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator seeded by a string (FNV-1a hash), so that one key always yields one owner. */
export function seededRandom(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  return mulberry32(h >>> 0);
}

/** The sandbox's one source of random values (docs/decisions.md#d49-seeded-randomness). */
export interface RandomSource {
  /** a number in [0, 1), in call order: payers, end-to-end ids, generated client ids */
  next: () => number;
  /** a record id: a version 4 UUID */
  uuid: () => string;
  /** the draws of fault probabilities: a stream of their own, so that no other draw shifts which faults fire */
  fault: () => number;
  /** starts the fault stream over from the seed (reset, clearing the faults) */
  restartFaults: () => void;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** 128 bits of `random` laid out as a version 4 UUID (RFC 9562). */
function uuidFrom(random: () => number): string {
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const w = (random() * 4294967296) >>> 0;
    b.push(w >>> 24, (w >>> 16) & 0xff, (w >>> 8) & 0xff, w & 0xff);
  }
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.map((x) => HEX[x]!);
  return `${h.slice(0, 4).join('')}-${h.slice(4, 6).join('')}-${h.slice(6, 8).join('')}-${h.slice(8, 10).join('')}-${h.slice(10).join('')}`;
}

/**
 * A source whose every stream derives from `seed`: ids, values and faults are separate streams, so that
 * drawing more of one never shifts another. `uuid` and `next` replace the seeded ids and values (with
 * crypto ones, where determinism is not wanted). The fault stream is mulberry32(seed), as it always
 * was, so a seed fires the same faults as in earlier versions.
 */
export function seededSource(seed: number, replace: { uuid?: () => string; next?: () => number } = {}): RandomSource {
  const ids = seededRandom(`${seed}:ids`);
  const source: RandomSource = {
    next: replace.next ?? seededRandom(`${seed}:values`),
    uuid: replace.uuid ?? (() => uuidFrom(ids)),
    fault: mulberry32(seed),
    restartFaults: () => {
      source.fault = mulberry32(seed);
    },
  };
  return source;
}
