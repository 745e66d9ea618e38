// GET /openapi.json: a valid OpenAPI 3.1 document, built from the request schemas themselves,
// whose every schema is valid JSON Schema 2020-12, covering every route the app registers.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ERROR_STATUS } from '../../src/domain/errors.js';
import { cashInSchema } from '../../src/schemas/public.js';
import { checkResponse } from '../helpers/openapi-check.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let doc: any;
beforeAll(async () => {
  sb = await startTestSandbox({ adminToken: 'admin-secret' });
  const r = await sb.request('GET', '/openapi.json'); // open even with an admin token
  expect(r.status).toBe(200);
  doc = r.body;
});
afterAll(() => sb.stop());

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** The operations of a path item (beside them: its description). */
const operationsOf = (item: any): [string, any][] => Object.entries<any>(item).filter(([k]) => METHODS.has(k));

/** Every JSON Schema in the document: components, parameters, bodies, answers and their headers. */
function* schemasOf(d: any): Generator<[string, unknown]> {
  for (const [name, s] of Object.entries(d.components.schemas)) yield [`components/${name}`, s];
  for (const [name, h] of Object.entries<any>(d.components.headers)) yield [`components/headers/${name}`, h.schema];
  for (const [name, b] of Object.entries<any>(d.components.requestBodies))
    for (const [type, c] of Object.entries<any>(b.content)) yield [`components/requestBodies/${name} ${type}`, c.schema];
  for (const [path, item] of Object.entries<any>(d.paths))
    for (const [method, op] of operationsOf(item)) {
      for (const p of op.parameters ?? []) yield [`${method} ${path} parameter ${p.name}`, p.schema];
      for (const [type, c] of Object.entries<any>(op.requestBody?.content ?? {})) yield [`${method} ${path} body ${type}`, c.schema];
      for (const [status, r] of Object.entries<any>(op.responses)) {
        for (const c of Object.values<any>(r.content ?? {})) yield [`${method} ${path} ${status}`, c.schema];
        for (const [name, h] of Object.entries<any>(r.headers ?? {}))
          if (!h.$ref) yield [`${method} ${path} ${status} header ${name}`, h.schema];
      }
    }
}

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('holds only valid JSON Schema 2020-12, and no ajv-only keyword', () => {
    const ajv = new Ajv2020({ strict: false });
    let count = 0;
    for (const [where, schema] of schemasOf(doc)) {
      count++;
      // a $ref-only schema points into components, which are checked themselves
      if (!ajv.validateSchema(schema as object)) throw new Error(`${where}: ${ajv.errorsText(ajv.errors)}`);
    }
    expect(count).toBeGreaterThan(150);
    expect(JSON.stringify(doc)).not.toContain('x-immutable');
  });

  it('documents every route the app registers, with the request schemas that validate them', () => {
    // the express app is the server's request listener; its router holds the registered routes
    const app = sb.running.listeners[0]!.server.listeners('request')[0] as any;
    const registered = new Set<string>();
    const walk = (stack: any[]) => {
      for (const layer of stack) {
        if (layer.route) {
          for (const [m, on] of Object.entries(layer.route.methods))
            if (on && m !== '_all') registered.add(`${m} ${String(layer.route.path).replace(/:(\w+)/g, '{$1}')}`);
        } else if (layer.handle?.stack) walk(layer.handle.stack);
      }
    };
    walk(app.router.stack);
    const documented = new Set(Object.entries<any>(doc.paths).flatMap(([p, item]) => operationsOf(item).map(([m]) => `${m} ${p}`)));
    expect(registered.size).toBeGreaterThan(40);
    expect([...registered].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((d) => !registered.has(d))).toEqual([]);
    // the cash-in body is the very schema ajv validates with (named, then referenced)
    expect(doc.paths['/v1/banking/cash-in/pix'].post.requestBody).toEqual({ $ref: '#/components/requestBodies/CashInRequest' });
    const cashIn = doc.components.requestBodies.CashInRequest.content['application/json'].schema;
    expect(cashIn.properties.amount).toEqual(cashInSchema.properties.amount);
    expect(doc.servers).toEqual([{ url: sb.url }]);
  });

  it('every documented path exists: a call without credentials never answers "no route"', async () => {
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      const path = template.replace(/\{(\w+)\}/g, (_m, name) =>
        name === 'file' ? 'index.js' : name === 'key' ? 'nobody@example.com' : '00000000-0000-4000-8000-00000000abcd',
      );
      for (const [method] of operationsOf(item)) {
        const r = await fetch(sb.url + path, { method: method.toUpperCase() });
        const body = r.headers.get('content-type')?.includes('json') ? await r.json() : await r.text();
        const noRoute = r.status === 404 && typeof body === 'object' && /^no route/.test(body.message);
        expect(noRoute, `${method} ${template}`).toBe(false);
        expect(r.status, `${method} ${template}`).not.toBe(405);
      }
    }
  });

  it('the response check catches an undocumented status and a body that does not match', () => {
    const headers = new Headers({ 'content-type': 'application/json', 'x-request-id': 'r-1' });
    const ok = { statusCode: 200, message: 'ok', data: { balance: 5 } };
    expect(checkResponse({ method: 'GET', url: '/v1/banking/balance', status: 200, headers, body: ok, text: '' })).toBeNull();
    expect(checkResponse({ method: 'GET', url: '/v1/banking/balance', status: 200, headers, body: { ...ok, extra: 1 }, text: '' })).toMatch(
      /additional/,
    );
    expect(checkResponse({ method: 'GET', url: '/v1/banking/balance', status: 409, headers, body: {}, text: '' })).toMatch(
      /not documented/,
    );
    expect(checkResponse({ method: 'GET', url: '/v1/nothing-here', status: 200, headers, body: {}, text: '' })).toMatch(
      /no documented path/,
    );
    const notFound = { statusCode: 404, message: 'no route', error: { code: 'NOT_FOUND', details: [] } };
    expect(checkResponse({ method: 'GET', url: '/v1/nothing-here', status: 404, headers, body: notFound, text: '' })).toBeNull();
  });

  it("passes Redocly's recommended rules: no error, and only the warnings accepted here, each for its reason", async () => {
    const ACCEPTED: Record<string, string> = {
      // health is open, never faulted, and reads no input: there is no 4xx it could answer
      'operation-4xx-response #/paths/~1_sandbox~1health/get/responses': 'no 4xx',
      // `not: {required: [pixCode, qrImage]}` means "not both"; the rule reads `required` as declaring fields
      'no-required-schema-properties-undefined #/paths/~1_sandbox~1pix~1pay/post/requestBody/content/application~1json/schema/allOf/1/not/required/0':
        'not both',
      'no-required-schema-properties-undefined #/paths/~1_sandbox~1pix~1pay/post/requestBody/content/application~1json/schema/allOf/1/not/required/1':
        'not both',
    };
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: `${sb.url}/openapi.json`, config });
    const seen = problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`);
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(seen.sort()).toEqual(Object.keys(ACCEPTED).sort());
  });

  it('has no bare object (a generator makes Record<string, never> of one)', () => {
    const bare: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
      if (v === null || typeof v !== 'object') return;
      const s = v as Record<string, unknown>;
      const open = ['properties', 'additionalProperties', 'patternProperties', 'oneOf', 'anyOf', 'allOf', '$ref'].some((k) => k in s);
      // a `not: {type: object, properties…}` or an `if` only tests; it never describes a value
      if (s.type === 'object' && !open && !/\/(not|if)(\/|$)/.test(at)) bare.push(at);
      for (const [k, x] of Object.entries(s)) walk(x, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(bare).toEqual([]);
  });

  it('lists error codes per operation and status, from the declared codes, each at its own status', () => {
    const used = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const [method, op] of operationsOf(item))
        for (const [status, r] of Object.entries<any>(op.responses)) {
          const schema = r.content?.['application/json']?.schema;
          const error = (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema)?.properties?.error;
          const codes: string[] | undefined = error?.properties?.code?.enum;
          if (!error?.properties?.code) continue;
          if (!codes) {
            // only a fault (any code it names) answers a code outside the list
            expect(['429', '5XX'], `${method} ${path} ${status}`).toContain(status);
            // a 429's code is the rate limit's TOO_MANY_REQUESTS, or any a fault names (docs/api.md#rate-limits)
            if (status === '429' && String(error.properties.code.description).includes('TOO_MANY_REQUESTS')) used.add('TOO_MANY_REQUESTS');
            continue;
          }
          for (const code of codes) {
            used.add(code);
            expect(String(ERROR_STATUS[code as keyof typeof ERROR_STATUS])[0], `${method} ${path} ${status} ${code}`).toBe(status[0]);
          }
        }
    // every declared code is answered somewhere, but the one reserved for a duplicate in flight (docs/api.md#idempotency)
    expect(Object.keys(ERROR_STATUS).filter((c) => !used.has(c))).toEqual(['IDEMPOTENCY_KEY_IN_USE']);
    const cashOut = doc.paths['/v1/banking/cash-out/pix'].post.responses;
    expect(cashOut['422'].content['application/json'].schema.properties.error.properties.code.enum).toEqual([
      'INSUFFICIENT_FUNDS',
      'IDEMPOTENCY_KEY_REUSED',
    ]);
    expect(cashOut['400'].content['application/json'].schema.properties.statusCode).toEqual({ const: 400 });
  });

  it('the headers the sandbox sends are the declared ones: 405 with Allow, 401 with WWW-Authenticate, warnings, faults', async () => {
    // sb.request checks each answer against the document (headers included), and throws on a mismatch
    const put = await sb.request('PUT', '/v1/banking/balance');
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const patchBalance = await sb.request('PATCH', '/v1/merchants/balance', { body: { name: 'x' } });
    expect(patchBalance.status).toBe(405);
    const options = await sb.request('OPTIONS', '/v1/merchants');
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'POST, GET, HEAD, OPTIONS']);
    const noToken = await sb.request('GET', '/v1/banking/balance');
    expect([noToken.status, noToken.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="pix-sandbox"']);
    const admin = { 'x-sandbox-admin-token': 'admin-secret' };
    const warned = await sb.request('POST', '/_sandbox/clock/advance', { headers: admin, body: { seconds: 1, nickname: 'x' } });
    expect([warned.status, warned.headers.get('x-sandbox-warnings')]).toEqual([200, 'ignored unknown fields: /nickname']);
    const echoed = await sb.request('GET', '/_sandbox/clock', { headers: { ...admin, 'x-request-id': 'trace-42' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42');
    for (const status of [429, 503]) {
      const f = await sb.request('POST', '/_sandbox/faults', { headers: admin, body: { path: '/v1/banking/balance', status, times: 1 } });
      expect(f.status).toBe(201);
      const faulted = await sb.request('GET', '/v1/banking/balance');
      expect([faulted.status, faulted.headers.get('x-sandbox-fault')]).toEqual([status, f.body.id]);
    }
  });

  it('the response check catches a missing, an undeclared or a wrong header, and a wrong Allow', () => {
    const json = { 'content-type': 'application/json' };
    const ok = { statusCode: 200, message: 'ok', data: { balance: 5 } };
    const balance = (headers: Record<string, string>) =>
      checkResponse({
        method: 'GET',
        url: '/v1/banking/balance',
        status: 200,
        headers: new Headers({ ...json, ...headers }),
        body: ok,
        text: '',
      });
    expect(balance({ 'x-request-id': 'r-1' })).toBeNull();
    expect(balance({})).toMatch(/no x-request-id/);
    expect(balance({ 'x-request-id': 'r 1' })).toMatch(/header x-request-id/);
    expect(balance({ 'x-request-id': 'r-1', 'x-sandbox-idempotent-replayed': 'true' })).toMatch(/not declared/);
    const unauthorized = { statusCode: 401, message: 'no', error: { code: 'UNAUTHORIZED', details: [] } };
    const noChallenge = new Headers({ ...json, 'x-request-id': 'r-1' });
    expect(
      checkResponse({ method: 'GET', url: '/v1/banking/balance', status: 401, headers: noChallenge, body: unauthorized, text: '' }),
    ).toMatch(/WWW-Authenticate is missing/);
    const wrongCode = { ...unauthorized, error: { code: 'INSUFFICIENT_FUNDS', details: [] } };
    const challenge = new Headers({ ...json, 'x-request-id': 'r-1', 'www-authenticate': 'Bearer realm="pix-sandbox"' });
    expect(
      checkResponse({ method: 'GET', url: '/v1/banking/balance', status: 401, headers: challenge, body: wrongCode, text: '' }),
    ).toMatch(/allowedValues/);
    const notAllowed = { statusCode: 405, message: 'no', error: { code: 'METHOD_NOT_ALLOWED', details: [] } };
    const allow = (value: string) => new Headers({ ...json, 'x-request-id': 'r-1', allow: value });
    expect(
      checkResponse({ method: 'PUT', url: '/v1/banking/balance', status: 405, headers: allow('GET, HEAD'), body: notAllowed, text: '' }),
    ).toBeNull();
    expect(
      checkResponse({ method: 'PUT', url: '/v1/banking/balance', status: 405, headers: allow('GET'), body: notAllowed, text: '' }),
    ).toMatch(/Allow/);
  });
});
