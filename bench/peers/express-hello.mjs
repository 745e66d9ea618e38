// The baseline peer: a bare express 5 app answering a small JSON body, nothing else.
// Prints "listening on http://127.0.0.1:<port>" like the sandbox, so both start the same way.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/', (_req, res) => res.json({ hello: 'world' }));
app.get('/_sandbox/health', (_req, res) => res.json({ status: 'ok' }));
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
