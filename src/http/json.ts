// A leaner res.json for the app's answers. Express's json() → send() reads three settings, looks
// the Content-Type up, rewrites it with a charset, works out ETag and freshness and measures the
// body, through a dozen calls on every answer. This app has no JSON settings, no ETags (disabled)
// and sets no Last-Modified, so for the common answer (no Content-Type chosen yet, a status with
// a body) the outcome is just these two headers and the text: written here directly. Anything
// else (a type already set, 204/205/304, nothing to stringify) goes through Express unchanged.
import type { Express, Response } from 'express';

export function useLeanJson(app: Express): void {
  const expressJson = app.response.json;
  app.response.json = function leanJson(this: Response, body: unknown) {
    const status = this.statusCode;
    if (this.hasHeader('content-type') || status === 204 || status === 205 || status === 304) return expressJson.call(this, body);
    const text = JSON.stringify(body);
    if (text === undefined) return expressJson.call(this, body);
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', Buffer.byteLength(text));
    if (this.req.method === 'HEAD') this.end();
    else this.end(text, 'utf8');
    return this;
  };
}
