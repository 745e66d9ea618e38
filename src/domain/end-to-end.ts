// End-to-end ids: the central bank's unique id of one PIX payment, shared by payer and receiver.

/** A few real participants, so that payers and receivers look like the banks a client knows. */
export const ISPBS: Readonly<Record<string, string>> = Object.freeze({
  '00000000': 'Banco do Brasil',
  '00360305': 'Caixa Econômica Federal',
  '60701190': 'Itaú Unibanco',
  '60746948': 'Bradesco',
  '90400888': 'Santander',
  '18236120': 'Nu Pagamentos',
  '00416968': 'Banco Inter',
  '08561701': 'PagSeguro',
  '16501555': 'Stone',
  '30306294': 'BTG Pactual',
});

/** The ISPB the sandbox itself speaks for when it is the payer's or receiver's bank. */
export const SANDBOX_ISPB = '18236120';

const END_TO_END_ID = /^E[0-9]{8}[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])([01][0-9]|2[0-3])[0-5][0-9][a-zA-Z0-9]{11}$/;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** `E` + ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics: 32 characters. */
export function generateEndToEndId(ispb: string, at: Date, random: () => number): string {
  if (!/^[0-9]{8}$/.test(ispb)) throw new Error(`ISPB must be 8 digits, got "${ispb}"`);
  const year = at.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) throw new Error('end-to-end id needs a valid date with a 4-digit year');
  const stamp =
    pad(year, 4) + pad(at.getUTCMonth() + 1, 2) + pad(at.getUTCDate(), 2) + pad(at.getUTCHours(), 2) + pad(at.getUTCMinutes(), 2);
  let suffix = '';
  for (let i = 0; i < 11; i++) {
    const index = Math.min(ALPHANUMERIC.length - 1, Math.floor(random() * ALPHANUMERIC.length));
    suffix += ALPHANUMERIC[index];
  }
  return `E${ispb}${stamp}${suffix}`;
}

export function isEndToEndId(s: string): boolean {
  return typeof s === 'string' && END_TO_END_ID.test(s);
}
