// The loopback origin of the differential run's backend tools. Deterministic replies by path;
// `/slow` answers long after the tools' deadline; `/rpc` is the catalog-backed tools' JSON-RPC
// backend. Binds 127.0.0.1 only.
import { createServer } from 'node:http';

const json = (o) => Buffer.from(JSON.stringify(o));

/** The catalog-backed tools' backend: JSON-RPC by method, for the one token it admits. */
function rpc(req, body, send, res, token) {
  if (req.headers.authorization !== `Bearer ${token}`) return send(401, json({ error: 'unauthorized' }));
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    return send(400, json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
  }
  const result = (r) => send(200, json({ jsonrpc: '2.0', id: msg.id, result: r }));
  const error = (status, code, message, data) => send(status, json({ jsonrpc: '2.0', id: msg.id, error: { code, message, ...(data ? { data } : {}) } }));
  switch (msg.method) {
    case 'echo':
      return result({ q: msg.params?.q });
    case 'nothing':
      return result(msg.params === undefined ? null : { unexpected: 'params' });
    case 'wrongshape':
      return result({ q: 5 });
    case 'exec':
      return error(200, -32000, 'Execution failed: backend detail');
    case 'params':
      return error(400, -32602, 'Invalid params', { path: '$.q', reason: 'backend detail' });
    case 'wrongid':
      return send(200, json({ jsonrpc: '2.0', id: 9, result: { q: 'x' } }));
    case 'slow': {
      const t = setTimeout(() => result({ q: 'late' }), 1500);
      res.on('close', () => clearTimeout(t));
      return undefined;
    }
    case 'notjson':
      return send(200, Buffer.from('not json'), 'text/plain');
    default:
      return error(404, -32601, 'Method not found');
  }
}

/**
 * A scripted RFC 7662 endpoint: client_secret_basic for `authz.client`, then claims for the
 * tokens `authz.tokens` grants (its scopes, with the `sub` 'diff-user' unless the token names its
 * own), `{"active":false}` for any other, a 500 for `diff-error` and a body that is not JSON for
 * `diff-notjson`. Every token asked about is counted in `asked`.
 */
function introspect(req, body, send, authz, asked) {
  const basic = `Basic ${Buffer.from(`${authz.client.id}:${authz.client.secret}`).toString('base64')}`;
  if (req.headers.authorization !== basic) return send(401, json({ error: 'invalid_client' }));
  const token = new URLSearchParams(body).get('token');
  asked.set(token, (asked.get(token) ?? 0) + 1);
  if (token === 'diff-error') return send(500, json({ error: 'server_error' }));
  if (token === 'diff-notjson') return send(200, Buffer.from('<html>not json</html>'), 'text/html');
  const grant = Object.hasOwn(authz.tokens, token) ? authz.tokens[token] : undefined;
  if (grant === undefined) return send(200, json({ active: false }));
  const { scope, sub } = typeof grant === 'string' ? { scope: grant, sub: 'diff-user' } : grant;
  const exp = Math.floor(Date.now() / 1000) + 600;
  return send(200, json({ active: true, iss: authz.issuer, aud: [authz.resource], exp, sub, scope, token_type: 'Bearer', client_id: 'diff-client' }));
}

/** Serves the origin on `port`; `introspections(token)` answers how often the issuer was asked about `token` (the rate-limit rows read it). */
export function startOrigin(port, backendToken, authz) {
  const asked = new Map();
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
      if (path === '/rpc') return rpc(req, body, send, res, backendToken);
      if (path === '/introspect') return introspect(req, body, send, authz, asked);
      switch (path) {
        case '/fast':
        case '/get':
          return send(200, json(echo === undefined ? { ok: true, path } : { ok: true, path, echo }));
        case '/slow': {
          const t = setTimeout(() => send(200, json({ ok: true, path })), 1500);
          res.on('close', () => clearTimeout(t));
          return undefined;
        }
        case '/stall':
          // Never answered: the caller's deadline ends the call (the server closes it at the end).
          return undefined;
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
    server.listen(port, '127.0.0.1', () =>
      ok({ port, introspections: (token) => asked.get(token) ?? 0, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) }),
    );
  });
}
