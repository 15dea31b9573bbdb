/**
 * Viceroy with its hostcall trace, for the rate-limit rows. Viceroy answers every Edge Rate Limiting
 * hostcall with a stub (nothing counted, nothing boxed), so on Viceroy the rows show what the
 * Native service asks for: tracing at TRACE for the `fastly_erl` and downstream modules (RUST_LOG)
 * prints each call with its integers (a string as its guest pointer and length, never its text)
 * and its result; at INFO every request starts with its request line, so calls group by request.
 */
import { ensureViceroy } from '../../scripts/viceroy.mjs';
import { freePort, start, waitForPort } from '../qualify/lib.mjs';

const TRACE = 'viceroy_lib=info,viceroy_lib::wiggle_abi::fastly_erl=trace,viceroy_lib::wiggle_abi::fastly_http_downstream=trace';
const START_TIMEOUT_MS = 30_000;

/** One request Viceroy served: its request line, the rate-limit calls the service made, their stub's answers. */
export interface TracedRequest {
  /** `POST http://<host>/mcp`: the method and the URL, its authority from the Host header. */
  readonly line: string;
  /** `client`, `has`, `increment`, `count <seconds>`, `add` (the notation of rate-limit.ts), in order. */
  readonly calls: string[];
  /** The results of penaltybox_has and ratecounter_lookup_count, as traced (`Ok(0)`). */
  readonly answers: string[];
}

/** `function`'s traced arguments as the rows write the call; another function of the downstream module is no rate-limit call. */
function callOf(fn: string, args: string): string | undefined {
  switch (fn) {
    case 'downstream_client_ip_addr':
      return 'client';
    case 'penaltybox_has':
      return 'has';
    case 'penaltybox_add':
      return 'add';
    case 'ratecounter_increment': {
      const delta = /\bdelta=(\d+)/.exec(args)?.[1];
      return delta === '1' ? 'increment' : `increment ${delta}`;
    }
    case 'ratecounter_lookup_count':
      return `count ${/\bduration=(\d+)/.exec(args)?.[1]}`;
    default:
      return fn.startsWith('ratecounter_') || fn.startsWith('penaltybox_') || fn === 'check_rate' ? fn : undefined;
  }
}

/** The requests of a trace, in the order Viceroy numbered them. */
export function tracedRequests(output: string): TracedRequest[] {
  const byId = new Map<number, TracedRequest>();
  for (const line of output.split('\n')) {
    const head = /request\{id=(\d+)\}: handling request (\S+ \S+)$/.exec(line);
    if (head) {
      byId.set(Number(head[1]), { line: head[2]!, calls: [], answers: [] });
      continue;
    }
    const m = /request\{id=(\d+)\}:wiggle abi\{module="(\w+)" function="(\w+)"\}: (.*)$/.exec(line);
    const r = m && byId.get(Number(m[1]));
    if (!m || !r) continue;
    const [, , , fn, rest] = m as unknown as [string, string, string, string, string];
    if (rest.startsWith('result=')) {
      if (fn === 'penaltybox_has' || fn === 'ratecounter_lookup_count') r.answers.push(rest.slice('result='.length));
      continue;
    }
    const call = callOf(fn, rest);
    if (call !== undefined) r.calls.push(call);
  }
  return [...byId].sort(([a], [b]) => a - b).map(([, r]) => r);
}

/** Serves `wasm` on Viceroy with the trace on; `stop()` ends it (by its process group) and answers what it served. */
export async function startTracedViceroy(wasm: string, toml: string): Promise<{ port: number; stop(): Promise<TracedRequest[]> }> {
  // Viceroy takes no port 0: a port just freed by the kernel.
  const port = await freePort();
  const p = start(ensureViceroy(), ['-C', toml, '--addr', `127.0.0.1:${port}`, wasm], { env: { ...process.env, RUST_LOG: TRACE } });
  // The trace is on standard output; all of it is read once the stream closes, after the exit.
  const read = new Promise((done) => p.child.stdout.once('close', done));
  try {
    await waitForPort(port, START_TIMEOUT_MS, p.exited);
  } catch (e) {
    await p.stop();
    throw new Error(`viceroy did not serve ${wasm} (${(e as Error).message}):\n${p.out.stderr.slice(-2000)}`);
  }
  return {
    port,
    async stop() {
      await p.stop();
      await read;
      return tracedRequests(p.out.stdout);
    },
  };
}
