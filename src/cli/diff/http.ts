/**
 * The differential run's wire: one HTTP/1.1 request on a fresh loopback connection, written byte
 * for byte as the case gives it (Node's client would normalise headers and bodies the cases are
 * about), and the response read back with its status, headers and exact body bytes.
 */
import net from 'node:net';

export interface WireRequest {
  readonly method: string;
  readonly path: string;
  /** Sent in order, exactly as given; `host`, `connection: close` and `content-length` are added. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Buffer;
}

export interface WireResponse {
  readonly status: number;
  /** Lower-cased names; a repeated name's values joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const CRLF = '\r\n';

export function encodeRequest(req: WireRequest): Buffer {
  const body = req.body ?? Buffer.alloc(0);
  const lines = [`${req.method} ${req.path} HTTP/1.1`, 'host: 127.0.0.1', ...req.headers.map(([n, v]) => `${n}: ${v}`), 'connection: close'];
  if (body.length > 0 || req.method === 'POST') lines.push(`content-length: ${body.length}`);
  return Buffer.concat([Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1'), body]);
}

/**
 * One response from the front of `buf`: `null` while incomplete (or, once the connection `ended`,
 * when it never completed). Throws on bytes that are not an HTTP/1.1 response.
 */
export function parseResponse(buf: Buffer, ended: boolean, method: string): WireResponse | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buf.subarray(0, headEnd).toString('latin1').split(CRLF);
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
  if (m === null) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(head[0])}`);
  const status = Number(m[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    if (i < 1) throw new Error(`not a header line: ${JSON.stringify(line)}`);
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = Object.prototype.hasOwnProperty.call(headers, name) ? `${headers[name]}, ${value}` : value;
  }
  const rest = buf.subarray(headEnd + 4);
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) return { status, headers, body: Buffer.alloc(0) };
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    for (let p = 0; ; ) {
      const lineEnd = rest.indexOf(CRLF, p);
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(p, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('not a chunk size');
      if (size === 0) return { status, headers, body: Buffer.concat(parts) };
      if (rest.length < lineEnd + 2 + size + 2) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      p = lineEnd + 2 + size + 2;
    }
  }
  if (headers['content-length'] !== undefined) {
    const n = Number(headers['content-length']);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a content-length: ${headers['content-length']}`);
    return rest.length < n ? null : { status, headers, body: Buffer.from(rest.subarray(0, n)) };
  }
  return ended ? { status, headers, body: Buffer.from(rest) } : null;
}

/**
 * Sends `req` to 127.0.0.1:`port` and resolves with the complete response, or `null` when none came
 * (refused, reset, unreadable, or nothing whole within `timeoutMs`).
 */
export function exchange(port: number, req: WireRequest, timeoutMs: number): Promise<WireResponse | null> {
  const bytes = encodeRequest(req);
  return new Promise((resolve) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    let buf = Buffer.alloc(0);
    let done = false;
    const read = (ended: boolean): WireResponse | null => {
      try {
        return parseResponse(buf, ended, req.method);
      } catch {
        return null;
      }
    };
    const finish = (r: WireResponse | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    sock.on('connect', () => sock.write(bytes));
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const r = read(false);
      if (r !== null) finish(r);
    });
    // A server may answer (413) and close before the whole body is written; what it sent still counts.
    sock.on('error', () => undefined);
    sock.on('close', () => finish(read(true)));
  });
}
