// Answers one page of a control list (docs/store.md): the items as the bare JSON array the control
// API has always answered, and where the next page starts in two headers, so that a client that
// reads only the body still works: x-sandbox-next-cursor (pass it back as `after`) and a Link
// header with rel="next" (RFC 8288). The last page has neither.
import type { Request, Response } from 'express';
import { NEXT_CURSOR_HEADER } from '../schemas/paging.js';
import type { Page } from '../store/page.js';

export function sendPage<T>(req: Request, res: Response, page: Page<T>, format: (item: T) => unknown): void {
  if (page.next !== null) {
    const next = new URL(req.originalUrl, 'http://sandbox');
    next.searchParams.set('after', String(page.next));
    res.setHeader(NEXT_CURSOR_HEADER, String(page.next));
    res.setHeader('Link', `<${next.pathname}${next.search}>; rel="next"`);
  }
  res.json(page.items.map(format));
}
