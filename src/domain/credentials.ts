// Client secrets are kept only as salted scrypt hashes. Verifying one costs tens of
// milliseconds by design, so a successful check is remembered (by a hash of the secret,
// never the secret) for the life of the process. The work factor exists to slow the guessing of
// weak secrets: a person's chosen secret gets scrypt's default cost (N=16384), while a secret the
// sandbox generated (192 random bits, beyond guessing at any cost) gets N=1024, so creating a
// merchant is not dominated by hashing. A secret written in clear in a fixture file or given on the
// command line ('published') gets N=1024 too: whoever can read the file has the secret itself, so a
// slow hash guards nothing, and start-up would spend ~40 ms hashing the shipped default secret.
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (
  secret: string,
  salt: Buffer,
  keylen: number,
  opts: { N: number; maxmem: number },
) => Promise<Buffer>;
export type SecretOrigin = 'chosen' | 'generated' | 'published';
const COST: Record<SecretOrigin, number> = { chosen: 16384, generated: 1024, published: 1024 };
const MAXMEM = 64 * 1024 * 1024;
const KEY_LENGTH = 32;
const verified = new Map<string, string>();

/** "scrypt$<N>$<salt hex>$<hash hex>" */
export async function hashSecret(secret: string, origin: SecretOrigin = 'chosen'): Promise<string> {
  const salt = randomBytes(16);
  const N = COST[origin];
  const hash = await scrypt(secret, salt, KEY_LENGTH, { N, maxmem: MAXMEM });
  return `scrypt$${N}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** The cost of a stored hash, or null when it is not one this module wrote. */
function costOf(stored: string): number | null {
  const [scheme, cost, saltHex, hashHex] = stored.split('$');
  const N = Number(cost);
  return scheme === 'scrypt' && saltHex && hashHex && Number.isInteger(N) && N >= 2 && N <= 1 << 20 ? N : null;
}

async function matches(secret: string, stored: string, N: number): Promise<boolean> {
  const [, , saltHex, hashHex] = stored.split('$');
  const expected = Buffer.from(hashHex!, 'hex');
  const actual = await scrypt(secret, Buffer.from(saltHex!, 'hex'), expected.length, { N, maxmem: MAXMEM });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const COSTS_IN_USE = [...new Set(Object.values(COST))];
const DUMMY_SALT = Buffer.alloc(16);

/**
 * Whether `secret` is the one `stored` hashes; `stored` undefined: an unknown client_id. A refusal
 * costs the same whether the client exists or not, and whatever cost its hash has
 * (docs/decisions.md#d74-the-token-endpoint-takes-as-long-for-any-client_id): one scrypt at each cost
 * in use, one after the other, the client's own hash at its cost and a dummy at the others (all of
 * them, for an unknown client). A right secret answers after its own hash only, and one already
 * verified (remembered by its digest) at once: only its holder can send it.
 */
export async function verifySecret(secret: string, stored: string | undefined): Promise<boolean> {
  const fingerprint = createHash('sha256').update(secret).digest('hex');
  if (stored !== undefined && verified.get(stored) === fingerprint) return true;
  const own = stored === undefined ? null : costOf(stored);
  if (own !== null && (await matches(secret, stored!, own))) {
    verified.set(stored!, fingerprint);
    return true;
  }
  for (const N of COSTS_IN_USE) if (N !== own) await scrypt(secret, DUMMY_SALT, KEY_LENGTH, { N, maxmem: MAXMEM });
  return false;
}

// A secret is never drawn from the sandbox's seeded source: a seed must not make secrets guessable.
export const generateSecret = (): string => randomBytes(24).toString('base64url');

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** A client_id is an identifier, not a secret: drawn from the sandbox's (seeded) source like any id. */
export function generateClientId(prefix: string, random: () => number): string {
  let id = `${prefix}_`;
  for (let i = 0; i < 12; i++) id += BASE64URL[Math.floor(random() * 64)];
  return id;
}
