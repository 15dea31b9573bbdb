// The loopback origin of the differential run's backend tools. Deterministic replies by path;
// `/slow` answers long after the tools' deadline. Binds 127.0.0.1 only.
import { createServer } from 'node:http';

const json = (o) => Buffer.from(JSON.stringify(o));

export function startOrigin(port) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let echo;
      try {
        echo = JSON.parse(body).q;
      } catch {
        echo = undefined;
      }
      const path = req.url.split('?')[0];
      const send = (status, bytes, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type, 'content-length': bytes.length });
        res.end(bytes);
      };
      switch (path) {
        case '/fast':
        case '/get':
          return send(200, json(echo === undefined ? { ok: true, path } : { ok: true, path, echo }));
        case '/slow': {
          const t = setTimeout(() => send(200, json({ ok: true, path })), 1500);
          res.on('close', () => clearTimeout(t));
          return undefined;
        }
        case '/big':
          return send(200, json({ ok: true, path, echo: 'x'.repeat(200) + 'y'.repeat(400) }));
        case '/exact': {
          // Exactly 512 bytes: at the tool's maxBytes, still accepted.
          const base = JSON.stringify({ ok: true, path, echo: '' });
          return send(200, json({ ok: true, path, echo: 'e'.repeat(512 - base.length) }));
        }
        case '/status500':
          return send(500, json({ ok: false, path }));
        case '/notjson':
          return send(200, Buffer.from('not json at all'), 'text/plain');
        case '/binary':
          return send(200, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
        case '/bom':
          return send(200, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json({ ok: true, path })]));
        case '/wrongshape':
          return send(200, json({ ok: 'yes', path: 7 }));
        case '/chunked': {
          res.writeHead(200, { 'content-type': 'application/json' });
          const text = JSON.stringify({ ok: true, path, echo: 'chunked' });
          res.write(text.slice(0, 5));
          setTimeout(() => res.end(text.slice(5)), 20);
          return undefined;
        }
        default:
          return send(404, Buffer.alloc(0));
      }
    });
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok({ port, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) }));
  });
}
