// Client secrets are kept only as salted scrypt hashes. Verifying one costs tens of
// milliseconds by design, so a successful check is remembered (by a hash of the secret,
// never the secret) for the life of the process.
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (secret: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;
const verified = new Map<string, string>();

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(secret, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const fingerprint = createHash('sha256').update(secret).digest('hex');
  if (verified.get(stored) === fingerprint) return true;
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await scrypt(secret, Buffer.from(saltHex, 'hex'), expected.length);
  const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
  if (ok) verified.set(stored, fingerprint);
  return ok;
}

export const generateSecret = (): string => randomBytes(24).toString('base64url');
export const generateClientId = (prefix: string): string => `${prefix}_${randomBytes(9).toString('base64url')}`;
