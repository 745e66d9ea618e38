// The PIX test vectors kept in the repository (test/vectors/pix.json, see test/vectors/README.md).
// A kind that is missing or empty throws where a test asks for it, so a lost vector fails the
// test that needs it instead of leaving an `it.each` with nothing to run.
import { readFileSync } from 'node:fs';

interface PixVectors {
  crc16_ccitt_false: { input: string; crc: string }[];
  brcode_valid: { note: string; code: string }[];
  brcode_invalid: { note: string; code: string }[];
  cpf_valid: string[];
  cpf_invalid: string[];
  cnpj_valid: string[];
  cnpj_invalid: string[];
  end_to_end_id: { pattern: string; valid: string[]; invalid: string[] };
  ispb: Record<string, string>;
  pix_key_patterns: Record<string, string>;
}

const all = JSON.parse(readFileSync(new URL('../vectors/pix.json', import.meta.url), 'utf8')) as Partial<PixVectors>;

/** One kind of vectors; throws when the file lacks it or holds none. */
export function vectors<K extends keyof PixVectors>(kind: K): PixVectors[K] {
  const v = all[kind];
  if (v === undefined || v === null || isEmpty(v))
    throw new Error(`test/vectors/pix.json has no "${kind}" vectors (or an empty list in them)`);
  return v;
}

/** An empty list or object, at the top or inside (end_to_end_id.valid, …). */
const isEmpty = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.length === 0
    : typeof v === 'object' && v !== null && (Object.keys(v).length === 0 || Object.values(v).some(isEmpty));
