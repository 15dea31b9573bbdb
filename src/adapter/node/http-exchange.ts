/**
 * The Node host's HTTP effects on `node:http`/`node:https` with keep-alive agents: the same
 * exchange the driver otherwise makes with `fetch`, without the WHATWG machinery (a governed
 * backend or an introspection endpoint is called once per request, so its cost is per request).
 * `node:http` never follows a redirect and adds only framing headers (host, connection,
 * content-length); no compression is asked for.
 */
import http from 'node:http';
import https from 'node:https';
import type { HttpExchange, HttpResult } from '../../core/driver';

/** An exchange with its own keep-alive agents (their idle sockets never keep the process alive). */
export function nodeExchange(): HttpExchange {
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
  return (effect, signal) =>
    new Promise<HttpResult>((resolve) => {
      let settled = false;
      const settle = (r: HttpResult): void => {
        if (settled) return;
        settled = true;
        resolve(r);
      };
      let url: URL;
      try {
        url = new URL(effect.url);
      } catch {
        return settle('unreachable');
      }
      const agent = url.protocol === 'https:' ? agents['https:'] : url.protocol === 'http:' ? agents['http:'] : undefined;
      if (agent === undefined) return settle('unreachable');
      const headers: Record<string, string> = {};
      for (const [name, value] of effect.headers) headers[name] = value;
      if (effect.body !== undefined) headers['content-length'] = String(Buffer.byteLength(effect.body));
      const request = (url.protocol === 'https:' ? https : http).request(url, { method: effect.method, headers, agent, ...(signal === undefined ? {} : { signal }) });
      request.on('error', () => settle('unreachable'));
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const parts: Buffer[] = [];
        let total = 0;
        const done = (): void => settle({ status, body: Buffer.concat(parts, total) });
        response.on('data', (chunk: Buffer) => {
          total += chunk.length;
          parts.push(chunk);
          // Past the cap the rest is never read: the core judges the reply oversized.
          if (total > effect.maxBytes) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', () => settle('unreachable'));
        response.on('aborted', () => settle('unreachable'));
      });
      request.end(effect.body);
    });
}
