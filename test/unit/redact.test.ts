// The redaction rule (src/http/redact.ts) on its own: every name and shape docs/control-api.md#request-journal
// lists, the names that must stay visible, and text of any length in one pass. The same rule seen through
// the running sandbox (journal, answers, log): test/integration/redaction-property.test.ts.
import { describe, expect, it } from 'vitest';
import { isSecretName, redact, redactText, REDACTED } from '../../src/http/redact.js';

const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzYW5kYm94In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

describe('secret names', () => {
  it.each([
    'authorization',
    'Proxy-Authorization',
    'cookie',
    'Set-Cookie',
    'x-sandbox-admin-token',
    'x-api-key',
    'api_key',
    'apiKey',
    'x-auth-token',
    'client_secret',
    'clientSecret',
    'ClientSecret',
    'access_token',
    'accesstoken',
    'refresh_token',
    'id_token',
    'token',
    'password',
    'passwd',
    'secret',
    'webhookSecret',
    'pin',
    'cvv',
    'cvc',
    'client_secret[]',
    'client_secret[0]',
    'a[client_secret]',
    'a[b][password]',
    'user[password][0]',
  ])('%s is secret', (name) => expect(isSecretName(name)).toBe(true));

  it.each([
    'token_type',
    'expires_in',
    'grant_type',
    'client_id',
    'pixKey',
    'pix_key',
    'key',
    'description',
    'endToEndId',
    'shipping',
    'pinned',
    'a[b]',
  ])('%s is not', (name) => expect(isSecretName(name)).toBe(false));
});

describe('secrets in text', () => {
  it('redacts a JWT whole or inside a longer string, and secret-named pairs', () => {
    expect(redactText(jwt)).toBe(REDACTED);
    expect(redactText(`Bearer ${jwt}`)).toBe(`Bearer ${REDACTED}`);
    expect(redactText(`paid with token=${jwt}. thanks`)).toBe(`paid with token=${REDACTED} thanks`);
    expect(redactText('my password=hunter2 and pin=1234, ok')).toBe(`my password=${REDACTED} and pin=${REDACTED} ok`);
    expect(redactText('amount=10 grant_type=x')).toBe('amount=10 grant_type=x');
    expect(redactText('a.b.c 1.2.3 host.example.com')).toBe('a.b.c 1.2.3 host.example.com');
  });

  it('redacts the query and the path of a URL, bracket and encoded names too, keeping the rest as sent', () => {
    expect(redactText('/v1/x?client_secret=s3&page=2')).toBe(`/v1/x?client_secret=${REDACTED}&page=2`);
    expect(redactText(`/v1/merchants/${jwt}`)).toBe(`/v1/merchants/${REDACTED}`);
    expect(redactText('/v1/x?client_secret[]=a&a[client_secret]=b&a%5Baccess_token%5D=c&q=x%20y&api_key=d#f')).toBe(
      `/v1/x?client_secret[]=${REDACTED}&a[client_secret]=${REDACTED}&a%5Baccess_token%5D=${REDACTED}&q=x%20y&api_key=${REDACTED}#f`,
    );
    expect(redactText('/v1/x?token_type=bearer&limit=3')).toBe('/v1/x?token_type=bearer&limit=3');
    expect(redactText('/v1/x')).toBe('/v1/x');
  });

  it('costs one pass over long text without the shapes (no backtracking per position)', () => {
    const long = 'a'.repeat(1 << 20);
    for (const text of [`${long}.${long}=`, 'aaaaaaaa.'.repeat(100_000), 'a='.repeat(500_000), `${'['.repeat(500_000)}=`]) {
      const started = performance.now();
      redactText(text);
      // a quadratic scan of a mebibyte takes minutes; one pass takes milliseconds
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});

describe('redact', () => {
  it('replaces secret fields at any depth and in form keys with brackets, and JWTs inside strings', () => {
    expect(
      redact({
        'client_secret[]': ['x', 'y'],
        'a[client_secret]': 'z',
        token_type: 'bearer',
        'x-api-key': 'k',
        deep: [{ inner: { pin: '1234', cvv: 123, token: { any: 'thing' }, note: `Bearer ${jwt}` } }],
      }),
    ).toEqual({
      'client_secret[]': REDACTED,
      'a[client_secret]': REDACTED,
      token_type: 'bearer',
      'x-api-key': REDACTED,
      deep: [{ inner: { pin: REDACTED, cvv: REDACTED, token: REDACTED, note: `Bearer ${REDACTED}` } }],
    });
  });

  it('redacts before it shortens, so that a JWT across the cut is still found', () => {
    const text = `${'x '.repeat(250)}${jwt}`;
    expect(JSON.stringify(redact(text))).not.toContain(jwt.slice(0, 20));
  });

  it('redacts a key that is itself a JWT', () => {
    expect(Object.keys(redact({ [jwt]: 1 }) as object)).toEqual([REDACTED]);
  });
});
