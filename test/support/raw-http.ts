// A raw HTTP/1.1 client over `net`, so tests control every header byte, duplicate header lines,
// chunk boundaries, stalls and disconnects (Node's http client normalises too much of that).
import net from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  /** Sent in order, exactly as given (repeated names allowed). `host` is added when absent. */
  headers: [string, string][];
  /** Sent with Content-Length. */
  body?: Uint8Array;
  /** Sent with Transfer-Encoding: chunked, one HTTP chunk per element. */
  chunks?: Uint8Array[];
}

export interface RawResponse {
  status: number;
  /** Lower-cased names; repeated names joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The server closed the connection after this response. */
  closed: boolean;
}

export interface SendOptions {
  /** Upper bound for the whole exchange. */
  timeoutMs?: number;
  /** Stop writing after this many bytes of the encoded request (a stalled upload). */
  stallAfterBytes?: number;
  /** Destroy the socket after writing `stallAfterBytes` (a disconnecting client). */
  destroyAfterStall?: boolean;
}

const CRLF = '\r\n';

export function encodeRequest(req: RawRequest): Buffer {
  const lines = [`${req.method} ${req.path} HTTP/1.1`];
  const names = new Set(req.headers.map(([n]) => n.toLowerCase()));
  if (!names.has('host')) lines.push('host: 127.0.0.1');
  for (const [n, v] of req.headers) lines.push(`${n}: ${v}`);
  if (!names.has('connection')) lines.push('connection: close');
  const parts: Buffer[] = [];
  if (req.chunks) {
    if (!names.has('transfer-encoding')) lines.push('transfer-encoding: chunked');
    parts.push(Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1'));
    for (const c of req.chunks) {
      if (c.length === 0) continue; // a zero-length chunk would end the body early
      parts.push(Buffer.from(c.length.toString(16) + CRLF, 'latin1'), Buffer.from(c), Buffer.from(CRLF));
    }
    parts.push(Buffer.from('0' + CRLF + CRLF, 'latin1'));
  } else {
    const body = req.body ?? new Uint8Array(0);
    if (!names.has('content-length') && (body.length > 0 || req.method === 'POST')) {
      lines.push(`content-length: ${body.length}`);
    }
    parts.push(Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1'), Buffer.from(body));
  }
  return Buffer.concat(parts);
}

/** Parses one response from the front of `buf`; `null` while incomplete. */
export function parseResponse(buf: Buffer, ended: boolean, method = 'POST'): RawResponse | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buf.subarray(0, headEnd).toString('latin1').split(CRLF);
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
  if (!m) throw new Error(`bad status line: ${JSON.stringify(head[0])}`);
  const status = Number(m[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const rest = buf.subarray(headEnd + 4);
  const closed = (headers['connection'] ?? '').toLowerCase().includes('close');
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { status, headers, body: Buffer.alloc(0), closed };
  }
  if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) {
    const out: Buffer[] = [];
    let p = 0;
    for (;;) {
      const le = rest.indexOf(CRLF, p);
      if (le < 0) return null;
      const size = parseInt(rest.subarray(p, le).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      if (size === 0) return { status, headers, body: Buffer.concat(out), closed };
      if (rest.length < le + 2 + size + 2) return null;
      out.push(rest.subarray(le + 2, le + 2 + size));
      p = le + 2 + size + 2;
    }
  }
  if ('content-length' in headers) {
    const n = Number(headers['content-length']);
    if (rest.length < n) return null;
    return { status, headers, body: Buffer.from(rest.subarray(0, n)), closed };
  }
  return ended ? { status, headers, body: Buffer.from(rest), closed: true } : null;
}

export interface Exchange {
  response: RawResponse | null;
  /** Milliseconds from connect to the complete response (or to the end). */
  elapsedMs: number;
  /** The socket saw FIN/RST from the server (or was destroyed by us). */
  socketClosed: boolean;
  error?: string;
}

/** One request on a fresh connection; resolves when the response is complete and the socket closes. */
export function send(port: number, req: RawRequest, opts: SendOptions = {}): Promise<Exchange> {
  const bytes = encodeRequest(req);
  const timeoutMs = opts.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    const started = performance.now();
    const sock = net.connect({ host: '127.0.0.1', port });
    let buf = Buffer.alloc(0);
    let response: RawResponse | null = null;
    let respondedAt = 0;
    let done = false;
    let error: string | undefined;
    const finish = (socketClosed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (!response) {
        try {
          response = parseResponse(buf, true, req.method);
        } catch (e) {
          error = String(e);
        }
      }
      sock.destroy();
      resolve({
        response,
        elapsedMs: (respondedAt || performance.now()) - started,
        socketClosed,
        error,
      });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    sock.on('connect', () => {
      if (opts.stallAfterBytes !== undefined) {
        sock.write(bytes.subarray(0, opts.stallAfterBytes));
        if (opts.destroyAfterStall) setTimeout(() => finish(true), 20);
      } else {
        sock.write(bytes);
      }
    });
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (!response) {
        try {
          response = parseResponse(buf, false, req.method);
        } catch (e) {
          error = String(e);
        }
        if (response) respondedAt = performance.now();
      }
    });
    // Writes may fail once the server closed early; the response read so far still counts.
    sock.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? String(e);
    });
    sock.on('close', () => finish(true));
  });
}
