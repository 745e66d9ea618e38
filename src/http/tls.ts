// The HTTPS certificate (docs/decisions.md#d41-http-and-https): given by --tls-cert/--tls-key, or self-signed and
// generated on first start into the data folder, then reused so that clients trust it once.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import { tlsModule } from '../lazy-builtins.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** where the certificate lives, for clients to trust (NODE_EXTRA_CA_CERTS, curl --cacert) */
  certPath: string;
  keyPath: string;
  /** true when this start generated a new certificate */
  generated: boolean;
  /** removes what only this run needed (the temp folder of an in-memory sandbox) */
  cleanup(): Promise<void>;
}

/** An unusable --tls-cert/--tls-key: a configuration problem (exit 2), not a crash. */
export class TlsConfigError extends Error {}

const VALID_DAYS = 825; // the longest validity that browsers and Apple's TLS stack accept
const RENEW_BEFORE_MS = 7 * 86_400_000;

/** The names the certificate must cover: loopback, plus the configured host and public URL's host. */
function certificateNames(config: Config): string[] {
  const names = ['localhost', '127.0.0.1', '::1'];
  const extra = [config.host];
  if (config.publicUrl) {
    try {
      extra.push(new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, ''));
    } catch {
      /* an unparsable public URL is someone else's error to report */
    }
  }
  for (const h of extra) if (h && h !== '0.0.0.0' && h !== '::' && !names.includes(h)) names.push(h);
  return names;
}

function covers(cert: X509Certificate, names: string[]): boolean {
  return names.every((n) => (isIP(n) ? cert.checkIP(n) !== undefined : cert.checkHost(n) !== undefined));
}

async function generateCertificate(names: string[]): Promise<{ cert: string; key: string }> {
  const notBeforeDate = new Date(Date.now() - 60_000); // real time: TLS peers check it, not the sandbox clock
  const notAfterDate = new Date(notBeforeDate.getTime() + VALID_DAYS * 86_400_000);
  // loaded only when a certificate must be made: most starts reuse one, or have HTTPS off
  // (the module's default export: the CommonJS exports object, in Node and in the esbuild bundle alike)
  const { generate } = (await import('selfsigned')).default;
  // an ECDSA P-256 key: made in ~1 ms where an RSA-2048 one took ~150 ms of each in-memory start,
  // and accepted by every TLS client a tester uses (curl, Node, browsers, Java, Go)
  const pems = await generate(
    [
      { name: 'commonName', value: 'pix-sandbox' },
      { name: 'organizationName', value: 'pix-sandbox (self-signed)' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, critical: true }, // ECDSA signs; it never enciphers keys
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })) },
      ],
    },
  );
  return { cert: pems.cert, key: pems.private };
}

async function writeAtomic(file: string, text: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode });
  await rename(tmp, file);
}

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Reuses a generated pair when it still parses, matches, covers every name and is not about to expire. */
function reusable(cert: string | null, key: string | null, names: string[]): boolean {
  if (!cert || !key) return false;
  try {
    const x = new X509Certificate(cert);
    if (!x.checkPrivateKey(createPrivateKey(key))) return false;
    return new Date(x.validTo).getTime() - Date.now() > RENEW_BEFORE_MS && covers(x, names);
  } catch {
    return false;
  }
}

async function givenMaterial(certFile: string, keyFile: string): Promise<TlsMaterial> {
  const read = async (file: string, what: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (e) {
      throw new TlsConfigError(`cannot read the TLS ${what} ${file}: ${(e as Error).message}`);
    }
  };
  const cert = await read(certFile, 'certificate');
  const key = await read(keyFile, 'key');
  try {
    tlsModule().createSecureContext({ cert, key }); // throws on a bad PEM or a key that does not match
  } catch (e) {
    throw new TlsConfigError(`cannot use the TLS certificate ${certFile} with key ${keyFile}: ${(e as Error).message}`);
  }
  return { cert, key, certPath: path.resolve(certFile), keyPath: path.resolve(keyFile), generated: false, cleanup: async () => {} };
}

/**
 * The certificate and key for the HTTPS listener. A file-backed sandbox keeps them as cert.pem and
 * key.pem in its data folder; an in-memory one writes them to a fresh temp folder (printed, and
 * removed on stop) because it owns no folder and should leave nothing behind.
 */
export async function loadTls(config: Config): Promise<TlsMaterial> {
  if (config.tlsCert || config.tlsKey) {
    if (!config.tlsCert || !config.tlsKey) throw new TlsConfigError('--tls-cert and --tls-key must be given together');
    return givenMaterial(config.tlsCert, config.tlsKey);
  }
  const names = certificateNames(config);
  const temp = config.memory ? await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-tls-')) : null;
  const dir = temp ?? path.resolve(config.dataDir);
  if (!temp) await mkdir(dir, { recursive: true, mode: 0o700 });
  const certPath = path.join(dir, 'cert.pem');
  const keyPath = path.join(dir, 'key.pem');
  const cleanup = async () => {
    if (temp) await rm(temp, { recursive: true, force: true });
  };
  let cert = await readIfPresent(certPath);
  let key = await readIfPresent(keyPath);
  if (reusable(cert, key, names)) return { cert: cert!, key: key!, certPath, keyPath, generated: false, cleanup };
  ({ cert, key } = await generateCertificate(names));
  // key first: a crash in between leaves a pair that does not match, which the next start regenerates
  await writeAtomic(keyPath, key, 0o600);
  await writeAtomic(certPath, cert, 0o600); // the data folder's files are its owner's only (docs/decisions.md#d56-data-files-are-private)
  return { cert, key, certPath, keyPath, generated: true, cleanup };
}
