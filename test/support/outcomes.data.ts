// The outcome table's data form, spec/outcomes.json: the authored rows (spec/outcomes.rows.ts), each
// profile's options with the core configuration they compile to (so the Rust tests run the very
// configuration the hosts run), and the canary no error reply may echo. A body chunk is a string
// when it is UTF-8, else `{ base64 }`; a long run of one ASCII byte at its end is written
// `{ text, run, times }` to keep padded bodies short.
import { resolveOptions } from '../../src/options';
import { CANARY, PROFILES } from './fixtures';
import { OUTCOMES } from '../../spec/outcomes.rows';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const LONG_RUN = 1024;

type Chunk = string | { base64: string } | { text: string; run: string; times: number };

function chunk(c: string | Uint8Array): Chunk {
  const bytes = typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c);
  const last = bytes[bytes.length - 1];
  let start = bytes.length;
  while (start > 0 && bytes[start - 1] === last) start--;
  if (last !== undefined && last < 0x80 && bytes.length - start >= LONG_RUN) {
    const head = chunk(bytes.subarray(0, start));
    if (typeof head === 'string') return { text: head, run: String.fromCharCode(last), times: bytes.length - start };
  }
  try {
    const text = utf8.decode(bytes);
    if (Buffer.from(text, 'utf8').equals(bytes)) return text;
  } catch {
    // not UTF-8: kept as bytes
  }
  return { base64: bytes.toString('base64') };
}

/** The JSON text of spec/outcomes.json, one row per line so a diff shows which row changed. */
export function outcomesJson(): string {
  const profiles = Object.fromEntries(
    Object.entries(PROFILES).map(([name, options]) => [name, { options, config: JSON.parse(resolveOptions(options).configJson) }]),
  );
  const rows = OUTCOMES.map((row) => {
    const { body, chunks, ...request } = row.request;
    const encoded = {
      ...request,
      ...(body !== undefined ? { body: chunk(body) } : {}),
      ...(chunks !== undefined ? { chunks: chunks.map(chunk) } : {}),
    };
    return { ...row, profile: row.profile ?? 'default', request: encoded };
  });
  return `{\n"canary": ${JSON.stringify(CANARY)},\n"profiles": ${JSON.stringify(profiles)},\n"rows": [\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n}\n`;
}
