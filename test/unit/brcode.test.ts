import { parsePix } from 'pix-utils';
import { parseEmv } from 'pix-utils/dist/main/emvHandler.js';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode, crc16, locationOf, parseBrCode, tlv } from '../../src/domain/brcode.js';
import { expectContractShape } from '../helpers/brcode-check.js';
import { vectors as vectorsOf } from '../helpers/vectors.js';

const vectors = {
  crc16_ccitt_false: vectorsOf('crc16_ccitt_false'),
  brcode_valid: vectorsOf('brcode_valid'),
  brcode_invalid: vectorsOf('brcode_invalid'),
};

const LOCATION = 'localhost:8080/pix/qr/v2/3f2b6c1e-9a4d-4e8f-b1c2-7d5e6f8a9b0c';

function expectIndependentParserAccepts(code: string, location: string, amount: string): void {
  const pix = parsePix(code) as { type?: string; url?: string; error?: boolean; merchantName?: string };
  expect(pix.error).toBeFalsy();
  expect(pix.type).toBe('DYNAMIC');
  expect(pix.url).toBe(location);
  const emv = parseEmv({ emvCode: code });
  expect(emv.isValid).toBe(true);
  if (!emv.isValid) return;
  expect(emv.getTag(54)).toBe(amount);
}

describe('crc16', () => {
  it.each(vectors.crc16_ccitt_false)('CRC of $input is $crc', ({ input, crc }) => expect(crc16(input)).toBe(crc));

  it('pads to four upper-case hex digits and covers UTF-8 bytes', () => {
    expect(crc16('')).toBe('FFFF');
    for (let i = 0; i < 300; i++) expect(crc16(`x${i}`)).toMatch(/^[0-9A-F]{4}$/);
    expect(crc16('é')).not.toBe(crc16('e'));
  });
});

describe('tlv', () => {
  it('writes id, two-digit length and value', () => {
    expect(tlv('58', 'BR')).toBe('5802BR');
    expect(tlv('26', 'x'.repeat(99))).toBe('2699' + 'x'.repeat(99));
  });

  it('throws on a value over 99 characters or a bad id', () => {
    expect(() => tlv('26', 'x'.repeat(100))).toThrow(/99/);
    expect(() => tlv('5', 'x')).toThrow();
  });
});

describe('parseBrCode', () => {
  it.each(vectors.brcode_valid)('accepts the $note', ({ code }) => {
    const parsed = parseBrCode(code);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.items['00']).toBe('01');
    expect(parsed.merchantAccount['00']).toBe('br.gov.bcb.pix');
    expect(parsed.items['63']).toBe(code.slice(-4));
  });

  it.each(vectors.brcode_invalid)('rejects the $note', ({ code }) => {
    expect(parseBrCode(code)).toMatchObject({ ok: false, reason: expect.stringMatching(/CRC/) });
    expect(locationOf(code)).toBeNull();
  });

  it('returns the sub-items of 26 and 62', () => {
    const parsed = parseBrCode(vectors.brcode_valid[1]!.code);
    expect(parsed).toMatchObject({
      ok: true,
      items: { '54': '10.50', '59': 'FULANO DE TAL', '60': 'BRASILIA' },
      merchantAccount: { '00': 'br.gov.bcb.pix', '01': '123e4567-e12b-12d1-a456-426655440000' },
      additional: { '05': 'PEDIDO123' },
    });
  });

  it('reads the location of the dynamic vector, and none of a static one', () => {
    expect(locationOf(vectors.brcode_valid[2]!.code)).toBe('pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25');
    expect(locationOf(vectors.brcode_valid[0]!.code)).toBeNull();
  });

  it('never throws on hostile input', () => {
    const valid = vectors.brcode_valid[0]!.code;
    const hostile: unknown[] = [
      '',
      '0',
      '00',
      '0002',
      '000201',
      'ab',
      '\u0000\u0000\u0000\u0000',
      'zz02ab',
      '00zz01',
      '00-1',
      '0099' + 'x',
      '00 201',
      '\ud800\ud800\ud800',
      '6304',
      '63041D3D',
      valid.slice(0, -1),
      valid.slice(0, -5),
      valid + '0',
      valid.replace('2658', '26xx'),
      '0'.repeat(100_000),
      valid.repeat(3),
      '__proto__',
      null,
      undefined,
      42,
      {},
    ];
    for (let cut = 1; cut < valid.length; cut++) hostile.push(valid.slice(0, cut), valid.slice(cut));
    for (const h of hostile) {
      const parsed = parseBrCode(h as string);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(typeof parsed.reason).toBe('string');
      expect(locationOf(h as string)).toBeNull();
    }
  });

  it('rejects a correct CRC over a malformed sub-template', () => {
    const body = '000201' + '2605' + '00xx1' + '5802BR' + '6304';
    expect(parseBrCode(body + crc16(body))).toMatchObject({ ok: false, reason: expect.stringMatching(/26/) });
  });
});

describe('buildDynamicBrCode', () => {
  const build = (amountCents: number, merchantName = 'Fulano de Tal', merchantCity = 'Brasília', location = LOCATION) =>
    buildDynamicBrCode({ location, amountCents, merchantName, merchantCity });

  it.each([
    [1, '0.01'],
    [99, '0.99'],
    [100, '1.00'],
    [1050, '10.50'],
    [123456, '1234.56'],
    [1_000_000_000, '10000000.00'],
  ])('formats %i cents as %s and satisfies D17 and pix-utils', (cents, amount) => {
    const code = build(cents);
    expectContractShape(code, LOCATION, amount);
    expectIndependentParserAccepts(code, LOCATION, amount);
    expect(parseBrCode(code)).toMatchObject({ ok: true, items: { '54': amount } });
    expect(locationOf(code)).toBe(LOCATION);
  });

  it('produces exactly the expected code for a known input', () => {
    const code = build(1050, 'Fulano de Tal', 'Brasília', 'pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25');
    const body =
      '000201010212' +
      '26730014br.gov.bcb.pix2551pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25' +
      '52040000530398654051' +
      '0.505802BR5913FULANO DE TAL6008BRASILIA62070503***6304';
    expect(code).toBe(body + crc16(body));
  });

  it('strips accents, symbols and excess length from merchant name and city', () => {
    const code = build(500, '  Padaria São João & Filhos — Açaí Ltda. ', 'São José dos Campos');
    const parsed = parseBrCode(code);
    expect(parsed).toMatchObject({ ok: true, items: { '59': 'PADARIA SAO JOAO FILHOS A', '60': 'SAO JOSE DOS CA' } });
    expectContractShape(code, LOCATION, '5.00');
    expectIndependentParserAccepts(code, LOCATION, '5.00');
  });

  it('falls back when nothing printable is left, and never ends a cut name in a space', () => {
    expect(parseBrCode(build(1, '日本語', '!!!'))).toMatchObject({ ok: true, items: { '59': 'PIX SANDBOX', '60': 'SAO PAULO' } });
    expect(parseBrCode(build(1, 'Straße Æsir Ñandú', 'Curitiba'))).toMatchObject({ ok: true, items: { '59': 'STRASSE SIR NANDU' } });
    expect(parseBrCode(build(1, 'A'.repeat(24) + ' B', 'X'))).toMatchObject({ ok: true, items: { '59': 'A'.repeat(24) } });
  });

  it('accepts a 77-character location and refuses a longer one or one with a scheme', () => {
    const longest = 'h.example.com/' + 'p'.repeat(77 - 14);
    expect(longest).toHaveLength(77);
    const code = build(1, 'A', 'B', longest);
    expectContractShape(code, longest, '0.01');
    expectIndependentParserAccepts(code, longest, '0.01');
    expect(() => build(1, 'A', 'B', longest + 'p')).toThrow(/77/);
    expect(() => build(1, 'A', 'B', 'https://pix.example.com/qr/1')).toThrow(/scheme/);
  });

  it('refuses amounts that are not a positive integer of cents', () => {
    for (const cents of [0, -1, 10.5, Number.NaN]) expect(() => build(cents)).toThrow(/cents/);
  });
});
