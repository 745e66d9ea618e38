// GET /openapi.json: a valid OpenAPI 3.1 document, built from the request schemas themselves,
// whose every schema is valid JSON Schema 2020-12, covering every route the app registers.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(doc.paths['/v1/banking/cash-in/pix'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CashInRequest',
    });
    expect(doc.components.schemas.CashInRequest.properties.amount).toEqual(cashInSchema.properties.amount);
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
});
