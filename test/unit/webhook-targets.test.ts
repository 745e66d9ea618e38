// Where a webhook may go (src/domain/webhook-targets.ts): the one URL rule, and --webhook-hosts read
// into a policy that answers for a host name or an address.
import { describe, expect, it } from 'vitest';
import { addressAllowed, hostVerdict, parseTargetPolicy, webhookUrlProblem } from '../../src/domain/webhook-targets.js';

describe('the URL rule of every webhook endpoint', () => {
  it.each([
    ['http://127.0.0.1:3000/hook', null],
    ['https://receiver.example/pix?x=1', null],
    ['HTTP://[::1]:8080/', null],
    ['http://user:pass@receiver:65535/', null],
    ['ftp://127.0.0.1/hook', /http:\/\/ or https:\/\//],
    ['javascript:alert(1)', /http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /http:\/\/ or https:\/\//],
    ['http://127.0.0.1:0/', /port from 1 to 65535/],
    ['http://127.0.0.1:65536/', /valid port/],
    ['not a url', /absolute/],
    ['', /absolute/],
    [`http://a.example/${'x'.repeat(2048)}`, /2048 characters/],
  ])('%s', (url, problem) => {
    const got = webhookUrlProblem(url);
    if (problem === null) expect(got).toBeNull();
    else expect(got).toMatch(problem);
  });
});

describe('--webhook-hosts', () => {
  const policy = parseTargetPolicy(['receiver', '*.tunnel.example', '10.0.0.0/8', '::1', '192.168.1.7']);

  it('no list: any host', () => {
    const any = parseTargetPolicy(null);
    expect(hostVerdict(any, '169.254.169.254')).toBe('yes');
    expect(hostVerdict(any, 'anything.example')).toBe('yes');
  });

  it('names exactly, wildcards below their domain, addresses and blocks', () => {
    expect(hostVerdict(policy, 'receiver')).toBe('yes');
    expect(hostVerdict(policy, 'RECEIVER.')).toBe('yes');
    expect(hostVerdict(policy, 'a.b.tunnel.example')).toBe('yes');
    expect(hostVerdict(policy, 'tunnel.example')).toBe('resolve'); // not under the wildcard: only by its addresses
    expect(hostVerdict(policy, '10.1.2.3')).toBe('yes');
    expect(hostVerdict(policy, '[::1]')).toBe('yes');
    expect(hostVerdict(policy, '192.168.1.7')).toBe('yes');
    expect(hostVerdict(policy, '192.168.1.8')).toBe('no');
    expect(hostVerdict(policy, '169.254.169.254')).toBe('no');
    expect(addressAllowed(policy, '::ffff:10.9.9.9')).toBe(true);
    expect(addressAllowed(policy, '127.0.0.1')).toBe(false);
  });

  it('without addresses, a name no entry names is refused outright (never resolved)', () => {
    expect(hostVerdict(parseTargetPolicy(['receiver']), 'other')).toBe('no');
  });

  it('names every entry it cannot read', () => {
    expect(() => parseTargetPolicy(['ok', '10.0.0.0/33', 'a b', '*', '::1/129'])).toThrow(
      'cannot read "10.0.0.0/33", "a b", "*", "::1/129": each entry is a host name, *.a.wildcard, an IP address or a CIDR block',
    );
  });
});
