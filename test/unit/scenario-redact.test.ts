// A failed step's exchange in a scenario report hides credentials by the journal's one secret-name rule
// (src/http/redact.ts), not a shorter list of its own.
import { describe, expect, it } from 'vitest';
import { redactExchange } from '../../src/scenarios/result.js';

describe('a scenario report redacts an exchange', () => {
  it('hides every secret-named header and body field at any depth, keeps the rest and the scheme', () => {
    const ex = redactExchange({
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:1/v1/oauth/token',
        headers: { authorization: 'Basic c2VjcmV0', 'x-api-key': 'k-123', 'content-type': 'application/json' },
        body: { client_id: 'app', client_secret: 's-1', nested: [{ password: 'p-1', pin: '1234', name: 'Ana' }] },
      },
      response: { status: 200, headers: {}, body: { access_token: 'eyJ.x.y', token_type: 'bearer', expires_in: 300 } },
      durationMs: 1,
    });
    expect(ex.request.headers).toEqual({ authorization: 'Basic ***', 'x-api-key': '***', 'content-type': 'application/json' });
    expect(ex.request.body).toEqual({ client_id: 'app', client_secret: '***', nested: [{ password: '***', pin: '***', name: 'Ana' }] });
    expect(ex.response.body).toEqual({ access_token: '***', token_type: 'bearer', expires_in: 300 });
  });
});
