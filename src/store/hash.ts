// The 32-bit hash under the id tables and key indexes. A hash is only a place to look: every
// record found through one is checked against the id or key asked for, so a collision costs one
// more comparison, never a wrong answer.

/** FNV-1a over the UTF-16 code units, then a final mix (so that near-equal keys spread apart). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
