// GET /_sandbox/ui: the dashboard (docs/dashboard.md). Plain browser files from the package's `ui/`
// folder (no build step), read on each request so that they are served the same whether the
// code runs from src/ or dist/. The page and its assets hold no data and need no admin token
// (a browser cannot send a header when it navigates); every data call the page makes does.
// One asset is made, not read: vocabulary.js, the closed lists of src/domain/vocabulary.ts as a
// browser module, so that the page's pickers and filters offer exactly the server's words.
import { readFile } from 'node:fs/promises';
import type { Response } from 'express';
import { SandboxError } from '../domain/errors.js';
import * as vocabulary from '../domain/vocabulary.js';
import { route } from '../http/operations.js';
import { packagePath } from '../paths.js';
import { controlTag, header, NOT_FOUND, revalidate } from '../schemas/operation.js';

export const UI_PATH = '/_sandbox/ui';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

// Only flat, plain names: nothing outside ui/ can be named, whatever the request says.
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(js|css|svg)$/;

// The page only talks to its own origin and shows QR codes as data: URLs.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** src/domain/vocabulary.ts as an ES module: every export that is data (not a helper function), each frozen. */
function vocabularyModule(): string {
  const lines = ['// Made by the sandbox from src/domain/vocabulary.ts (docs/dashboard.md#files): the lists the sandbox speaks.'];
  for (const [name, value] of Object.entries(vocabulary))
    if (typeof value !== 'function') lines.push(`export const ${name} = Object.freeze(${JSON.stringify(value)});`);
  return `${lines.join('\n')}\n`;
}
const VOCABULARY_FILE = 'vocabulary.js';
const VOCABULARY_JS = Buffer.from(vocabularyModule());

async function sendFile(res: Response, name: string): Promise<void> {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  let body: Buffer;
  try {
    body = name === VOCABULARY_FILE ? VOCABULARY_JS : await readFile(packagePath('ui', name));
  } catch {
    throw new SandboxError('NOT_FOUND', `the dashboard has no file named ${name}`);
  }
  res.setHeader('Content-Type', TYPES[ext] ?? 'application/octet-stream');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  if (ext === 'html') res.setHeader('Content-Security-Policy', CSP);
  res.status(200).send(body);
}

const dashboardFile = {
  ...revalidate,
  'X-Content-Type-Options': header('The declared type is the type', { const: 'nosniff' }),
  'Referrer-Policy': header('No referrer leaves the dashboard', { const: 'no-referrer' }),
};

export const uiOperations = [
  route({
    method: 'get',
    path: UI_PATH,
    tag: controlTag('dashboard'),
    auth: 'none',
    summary: 'The dashboard page',
    responses: {
      200: {
        description: 'HTML',
        mediaTypes: ['text/html'],
        headers: { ...dashboardFile, 'Content-Security-Policy': header('The page talks only to its own origin', { type: 'string' }) },
      },
    },
    handle: async ({ res }) => sendFile(res, 'index.html'),
  }),
  route({
    method: 'get',
    path: `${UI_PATH}/{file}`,
    tag: controlTag('dashboard'),
    auth: 'none',
    summary: "The dashboard's scripts and styles (vocabulary.js is made from the server's lists)",
    params: { file: { type: 'string', pattern: ASSET_NAME.source } },
    responses: {
      200: { description: 'JavaScript, CSS or SVG', mediaTypes: ['text/javascript', 'text/css', 'image/svg+xml'], headers: dashboardFile },
      404: NOT_FOUND,
    },
    async handle({ req, res }) {
      const file = String(req.params.file ?? '');
      if (!ASSET_NAME.test(file)) throw new SandboxError('NOT_FOUND', `the dashboard has no file named ${file.slice(0, 80)}`);
      await sendFile(res, file);
    },
  }),
];
