// A POST over HTTPS that trusts only the given certificate (or none: Node's default trust), and
// reports the certificate the server showed, for tests of the sandbox's TLS listener.
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { DEFAULT_CLIENT } from './sandbox.js';

export const TOKEN_BODY = { grant_type: 'client_credentials', ...DEFAULT_CLIENT };

interface HttpsAnswer {
  status: number;
  body: any;
  fingerprint256: string;
}

export function httpsPost(url: string, p: string, body: unknown, ca?: string): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url + p,
      { method: 'POST', headers: { 'content-type': 'application/json' }, ...(ca ? { ca } : {}) },
      (res) => {
        const fingerprint256 = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, fingerprint256 });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
