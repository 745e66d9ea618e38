// EMV® BR Code ("PIX copia e cola") for dynamic charges, as the central bank's manual defines it.
// The builder is strict about what it emits; the parser is defensive because it reads what payers
// paste into the control API.

const CRC_TABLE: Uint16Array = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
    table[n] = c & 0xffff;
  }
  return table;
})();

const utf8 = new TextEncoder();

/** CRC16/CCITT-FALSE of the UTF-8 bytes, as four upper-case hex digits. */
export function crc16(input: string): string {
  let crc = 0xffff;
  for (const byte of utf8.encode(input)) crc = ((crc << 8) ^ (CRC_TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0)) & 0xffff;
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function tlv(id: string, value: string): string {
  if (!/^[0-9]{2}$/.test(id)) throw new Error(`BR Code item id must be two digits, got "${id}"`);
  if (value.length > 99) throw new Error(`BR Code item ${id} is ${value.length} characters long, the maximum is 99`);
  return id + String(value.length).padStart(2, '0') + value;
}

export const PIX_GUI = 'br.gov.bcb.pix';
const LOCATION_MAX_LENGTH = 77;
const MERCHANT_NAME_MAX_LENGTH = 25;
const MERCHANT_CITY_MAX_LENGTH = 15;

/** Payers' apps print these fields; the manual allows only upper-case ASCII without accents. */
function sanitizeEmvText(raw: string, maxLength: number, fallback: string): string {
  const ascii = raw
    .toUpperCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Z0-9 ]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  const cut = ascii.slice(0, maxLength).trimEnd();
  return cut.length > 0 ? cut : fallback;
}

/** Integer cents → reais with a '.' and two decimals, without going through floating point. */
function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 1) throw new Error(`amount must be a positive integer of cents, got ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export interface DynamicBrCodeInput {
  /** host and path of the charge's payload, without scheme */
  location: string;
  amountCents: number;
  merchantName: string;
  merchantCity: string;
}

export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input.location)) throw new Error('BR Code location must not include a scheme');
  if (input.location.length === 0 || input.location.length > LOCATION_MAX_LENGTH) {
    throw new Error(`BR Code location must be 1 to ${LOCATION_MAX_LENGTH} characters, got ${input.location.length}`);
  }
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', PIX_GUI) + tlv('25', input.location)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', formatAmount(input.amountCents)) +
    tlv('58', 'BR') +
    tlv('59', sanitizeEmvText(input.merchantName, MERCHANT_NAME_MAX_LENGTH, 'PIX SANDBOX')) +
    tlv('60', sanitizeEmvText(input.merchantCity, MERCHANT_CITY_MAX_LENGTH, 'SAO PAULO')) +
    tlv('62', tlv('05', '***')) +
    '6304';
  return body + crc16(body);
}

export type ParsedBrCode =
  | { ok: true; items: Record<string, string>; merchantAccount: Record<string, string>; additional: Record<string, string> }
  | { ok: false; reason: string };

type TlvResult = { ok: true; items: Record<string, string>; order: string[] } | { ok: false; reason: string };

const TWO_DIGITS = /^[0-9]{2}$/;

function parseTlv(s: string, where: string): TlvResult {
  const items: Record<string, string> = {};
  const order: string[] = [];
  let pos = 0;
  while (pos < s.length) {
    if (pos + 4 > s.length) return { ok: false, reason: `${where}: truncated item header at position ${pos}` };
    const id = s.slice(pos, pos + 2);
    const lenText = s.slice(pos + 2, pos + 4);
    if (!TWO_DIGITS.test(id)) return { ok: false, reason: `${where}: item id at position ${pos} is not two digits` };
    if (!TWO_DIGITS.test(lenText)) return { ok: false, reason: `${where}: item ${id} has a length that is not two digits` };
    const len = Number(lenText);
    if (len === 0) return { ok: false, reason: `${where}: item ${id} is empty` };
    if (pos + 4 + len > s.length) return { ok: false, reason: `${where}: item ${id} runs past the end of the code` };
    if (id in items) return { ok: false, reason: `${where}: item ${id} appears twice` };
    items[id] = s.slice(pos + 4, pos + 4 + len);
    order.push(id);
    pos += 4 + len;
  }
  return { ok: true, items, order };
}

export function parseBrCode(code: string): ParsedBrCode {
  try {
    if (typeof code !== 'string') return { ok: false, reason: 'the code is not a string' };
    // The longest legal code is far below this; the bound keeps hostile input cheap to reject.
    if (code.length > 1024) return { ok: false, reason: 'the code is too long' };
    const top = parseTlv(code, 'code');
    if (!top.ok) return top;
    if (top.order[0] !== '00' || top.items['00'] !== '01') return { ok: false, reason: 'the code must start with item 00 = 01' };
    if (top.order[top.order.length - 1] !== '63') return { ok: false, reason: 'the code must end with the CRC item 63' };
    const crc = top.items['63'] ?? '';
    if (!/^[0-9A-F]{4}$/.test(crc)) return { ok: false, reason: 'the CRC must be four upper-case hex digits' };
    const expected = crc16(code.slice(0, code.length - 4));
    if (crc !== expected) return { ok: false, reason: `wrong CRC: ${crc}, expected ${expected}` };
    const mai = parseTlv(top.items['26'] ?? '', 'item 26');
    if (!mai.ok) return mai;
    const add = parseTlv(top.items['62'] ?? '', 'item 62');
    if (!add.ok) return add;
    return { ok: true, items: top.items, merchantAccount: mai.items, additional: add.items };
  } catch {
    // Nothing above should throw; this keeps the promise to callers if something unforeseen does.
    return { ok: false, reason: 'the code could not be parsed' };
  }
}

/** The payload location (26/25) of a valid PIX code, or null. */
export function locationOf(code: string): string | null {
  const parsed = parseBrCode(code);
  if (!parsed.ok) return null;
  if ((parsed.merchantAccount['00'] ?? '').toLowerCase() !== PIX_GUI) return null;
  return parsed.merchantAccount['25'] ?? null;
}
