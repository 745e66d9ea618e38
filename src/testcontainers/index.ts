// `import { PixSandboxContainer } from 'pix-sandbox/testcontainers'`: the sandbox's image as a
// Testcontainers module (testcontainers-node 11), as LocalStack and WireMock ship theirs. It waits
// on readiness (GET /_sandbox/health answers 200 only once listening, store open and fixtures
// loaded), and lets webhooks reach a server on the host: a webhook URL on localhost becomes one on
// host.testcontainers.internal, the port exposed through Testcontainers' host port forwarding.
import { readFileSync } from 'node:fs';
import { AbstractStartedContainer, GenericContainer, TestContainers, Wait, type StartedTestContainer } from 'testcontainers';
import type { Credentials } from '../client/public-client.js';
import { packagePath } from '../paths.js';

/** The image `docker build -t pix-sandbox .` makes from the package's Dockerfile. */
export const PIX_SANDBOX_IMAGE = 'pix-sandbox:latest';
export const HTTP_PORT = 8080;
export const HTTPS_PORT = 8443;
/** where withFixtures() puts the fixture file inside the container */
const FIXTURES_IN_CONTAINER = '/tmp/pix-sandbox-fixtures.json';
/** the name a container knows the host by once Testcontainers exposes a host port to it */
const HOST_ALIAS = 'host.testcontainers.internal';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The first account of a fixture set: the default account, whose credentials the sandbox prints at start-up. */
function firstAccount(fixtures: unknown): Credentials {
  const account = (fixtures as { accounts?: Partial<Credentials>[] } | null)?.accounts?.[0];
  if (typeof account?.client_id !== 'string' || typeof account.client_secret !== 'string')
    throw new Error('pix-sandbox: the fixtures have no first account with client_id and client_secret');
  return { client_id: account.client_id, client_secret: account.client_secret };
}

export class PixSandboxContainer extends GenericContainer {
  #credentials: Credentials | null = null;
  #fixtureCredentials: Credentials | null = null;
  #adminToken: string | null = null;
  #webhookUrl: string | null = null;
  #hostPorts: number[] = [];

  constructor(image = PIX_SANDBOX_IMAGE) {
    super(image);
    this.withExposedPorts(HTTP_PORT, HTTPS_PORT)
      .withWaitStrategy(Wait.forHttp('/_sandbox/health', HTTP_PORT).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** The fixture set loaded into the (fresh) store: a JSON file on this machine, or the set itself. */
  withFixtures(fixtures: string | object): this {
    const content = typeof fixtures === 'string' ? readFileSync(fixtures, 'utf8') : JSON.stringify(fixtures);
    this.#fixtureCredentials = firstAccount(JSON.parse(content));
    return this.withCopyContentToContainer([{ content, target: FIXTURES_IN_CONTAINER, mode: 0o644 }]).withEnvironment({
      PIX_SANDBOX_FIXTURES: FIXTURES_IN_CONTAINER,
    });
  }

  /** Protects the control API (/_sandbox): calls then need the x-sandbox-admin-token header. */
  withAdminToken(token: string): this {
    this.#adminToken = token;
    return this.withEnvironment({ PIX_SANDBOX_ADMIN_TOKEN: token });
  }

  /** Replaces the default account's credentials. */
  withCredentials(credentials: Credentials): this {
    this.#credentials = credentials;
    return this.withEnvironment({ PIX_SANDBOX_CLIENT_ID: credentials.client_id, PIX_SANDBOX_CLIENT_SECRET: credentials.client_secret });
  }

  /**
   * Registers a webhook endpoint for the default account. A URL on localhost (a server of the test
   * run itself) is reached through Testcontainers' host port exposure: its port is exposed when the
   * container starts, and the sandbox posts to host.testcontainers.internal instead.
   */
  withWebhookUrl(url: string): this {
    const u = new URL(url);
    if (LOOPBACK.has(u.hostname)) {
      const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
      this.#hostPorts.push(port);
      u.hostname = HOST_ALIAS;
    }
    this.#webhookUrl = u.toString();
    return this.withEnvironment({ PIX_SANDBOX_WEBHOOK_URL: this.#webhookUrl });
  }

  override async start(): Promise<StartedPixSandboxContainer> {
    // before the container exists, so that Testcontainers gives it the host alias
    if (this.#hostPorts.length > 0) await TestContainers.exposeHostPorts(...this.#hostPorts);
    const credentials =
      this.#credentials ??
      this.#fixtureCredentials ??
      firstAccount(JSON.parse(readFileSync(packagePath('fixtures', 'default.json'), 'utf8')));
    return new StartedPixSandboxContainer(await super.start(), credentials, this.#adminToken, this.#webhookUrl);
  }
}

export class StartedPixSandboxContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly credentials: Credentials,
    private readonly adminToken: string | null,
    private readonly webhookUrl: string | null,
  ) {
    super(started);
  }

  /** http://<host>:<mapped port>: the public API (/v1), the control API (/_sandbox) and the dashboard. */
  getBaseUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(HTTP_PORT)}`;
  }

  /** https://<host>:<mapped port>, served with the certificate of getCertificate(). */
  getHttpsUrl(): string {
    return `https://${this.getHost()}:${this.getMappedPort(HTTPS_PORT)}`;
  }

  /** The default account's credentials (for POST /v1/oauth/token). */
  getCredentials(): Credentials {
    return { ...this.credentials };
  }

  /** The admin token given with withAdminToken(), or null when the control API is open. */
  getAdminToken(): string | null {
    return this.adminToken;
  }

  /** The webhook URL the sandbox posts to (a localhost URL rewritten to host.testcontainers.internal). */
  getWebhookUrl(): string | null {
    return this.webhookUrl;
  }

  /** The HTTPS certificate (PEM) the sandbox generated, for a client's `ca`. */
  async getCertificate(): Promise<string> {
    const r = await this.exec(['cat', '/data/cert.pem']);
    if (r.exitCode !== 0) throw new Error(`pix-sandbox: no certificate in the container (${r.stderr || r.output})`);
    return r.stdout;
  }
}
