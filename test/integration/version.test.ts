// GET /_sandbox/version (docs/control-api.md#version): what is running. Added through the operation
// table alone (docs/contributing.md#add-an-endpoint): the route, its 405, its admin guard and its place
// in /openapi.json all come from the one entry, and every answer below is checked against that document.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../../src/client/control-client.js';
import { packagePath } from '../../src/paths.js';
import { SCHEMA_VERSION } from '../../src/store/model.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ADMIN = 'version-admin-token';
const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };

describe('GET /_sandbox/version', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox({ adminToken: ADMIN });
  });
  afterAll(() => sb.stop());
  const admin = { 'x-sandbox-admin-token': ADMIN };

  it("answers the package's version, the Node.js version and the data file's format version", async () => {
    const r = await sb.request('GET', '/_sandbox/version', { headers: admin });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: pkg.version, node: process.version, storeSchemaVersion: SCHEMA_VERSION });
    const health = await sb.request('GET', '/_sandbox/health');
    expect(r.body.version).toBe(health.body.version);
  });

  it('needs the admin token when one is configured', async () => {
    const r = await sb.request('GET', '/_sandbox/version');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  });

  it('answers another method 405 with Allow, as the table says', async () => {
    const r = await sb.request('POST', '/_sandbox/version', { headers: admin, body: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    expect(r.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('is in /openapi.json, and the typed control client reaches it with no method of its own', async () => {
    const doc = await sb.request('GET', '/openapi.json');
    expect(doc.body.paths['/_sandbox/version'].get.operationId).toBe('getSandboxVersion');
    const control = new ControlClient({ baseUrl: sb.url, adminToken: ADMIN });
    const r = await control.request<{ storeSchemaVersion: number }>('GET', '/_sandbox/version');
    expect(r.status).toBe(200);
    expect(r.body.storeSchemaVersion).toBe(SCHEMA_VERSION);
  });
});
