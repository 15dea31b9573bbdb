/**
 * The rate-limit rows of the differential run (./rate-limit.ts) against node-javascript,
 * node-native, fastly-native (Viceroy) and workerd-javascript. Every sequence gets a fresh server
 * on each target, so every count starts at zero: a new Node listener, a new Node Native host (its
 * rate counters and penalty boxes are its own), a new Viceroy (traced), and in workerd a handler
 * of its own (the sequence's Host header names it). A sequence's steps run in order on all
 * targets at once, and the other sequences and the refusals run while the one that waits for its
 * window waits, so the wait is spent once. Each step is held on each
 * target to its exact answer (Viceroy's where given) and, on Viceroy, to the hostcalls its trace
 * shows. The refusal rows are built on every host and by the Native build. The Fastly JavaScript
 * package serves the deployed router only (and every request there is a fresh instance): it has
 * no rows here.
 */
import { createServer } from 'node:http';
import { createMcpNodeHandler } from '../../src/node';
import { Engine } from '../../src/core/engine';
import { resolveOptions } from '../../src/options';
import type { Target } from '../../src/compiler/types';
import { answerOf } from '../../src/cli/diff/compare';
import type { RawRequest } from '../../test/support/raw-http';
import { startHost } from '../../src/cli/compute-host/host.mjs';
import { nativeBinary } from '../../scripts/edge-lib.mjs';
import { exchange } from './exchange';
import { startTracedViceroy, type TracedRequest } from './viceroy-trace';
import { RATE_LIMIT_PROFILES, REFUSALS, SEQUENCES, refusedConfig, refusedOptions, wireToken, type Answer, type Refusal, type Sequence, type Step } from './rate-limit';

export const RATE_LIMIT_TARGETS = ['node-javascript', 'node-native', 'fastly-native', 'workerd-javascript'] as const satisfies readonly Target[];
type RateTarget = (typeof RATE_LIMIT_TARGETS)[number];

const STEP_TIMEOUT_MS = 5000;
/** What Viceroy's stubs answer penaltybox_has and ratecounter_lookup_count: never boxed, nothing counted. */
const STUB_ANSWER = 'Ok(0)';
/** The refused Native service's message: the service's own reason under the build's. */
const NATIVE_REFUSED = 'the Native service could not be configured: the core refused the configuration: ';

export interface RateLimitContext {
  /** The rows to run (selectedRows). */
  readonly rows: Rows;
  readonly introspections: (token: string) => number;
  /** The Native binary of each rate-limit profile. */
  readonly wasm: ReadonlyMap<string, string>;
  readonly toml: string;
  readonly workerdPort: number;
  /** A profile's options as node-javascript takes them (the run may swap the core). */
  readonly nodeOptions: (options: Record<string, unknown>) => Record<string, unknown>;
  /** The Native build's engine configuration of a host's options (secrets moved to the store). */
  readonly nativeConfig: (options: Record<string, unknown>) => string;
  /** Where the refusal rows' Native builds write (never kept: each is refused). */
  readonly scratchWasm: string;
  readonly log: ((line: string) => void) | undefined;
}

/** What a target answered for a step, in the fields an Answer holds; null: no answer. */
type Seen = (Answer & { readonly allow: string }) | null;

export interface RateLimitResult {
  readonly passed: number;
  readonly failed: number;
  readonly failures: string[];
  readonly sequences: number;
  readonly steps: number;
  readonly refusals: number;
  /** What each target answered, per step ("<sequence> #<n>"); on Viceroy with the traced hostcalls and their answers. */
  readonly observed: Record<string, Partial<Record<RateTarget, Seen | (Seen & { readonly trace?: TracedRequest })>>>;
}

/** The sequences and refusal rows to run, each with its index in its list. */
export interface Rows {
  readonly sequences: readonly (readonly [number, Sequence])[];
  readonly refusals: readonly (readonly [number, Refusal])[];
}

/** The rows whose names contain `only` (all without it). */
export function selectedRows(only: string | undefined): Rows {
  const named = (name: string) => !only || name.includes(only);
  return {
    sequences: SEQUENCES.map((s, i) => [i, s] as const).filter(([, s]) => named(s.name)),
    refusals: REFUSALS.map((r, i) => [i, r] as const).filter(([, r]) => named(refusalName(r))),
  };
}

const refusalName = (r: Refusal) => `rate limit refused: ${r.name}`;

/** The rows' own consistency: what they say must be checkable. */
function checkRows(): void {
  for (const s of SEQUENCES) {
    s.steps.forEach((step, k) => {
      const where = `tools/diff/rate-limit.ts: ${s.name}, step ${k + 1}`;
      if ((step.expect.status === 429) !== (step.viceroy !== undefined)) throw new Error(`${where}: a step limited on the counting targets gives Viceroy's answer (viceroy), and only such a step`);
      for (const a of [step.expect, step.viceroy]) {
        if (a !== undefined && (step.token !== undefined) !== (a.asked !== undefined)) throw new Error(`${where}: a step with a token says how often the issuer was asked (asked), and only such a step`);
      }
      if (!(s.profile in RATE_LIMIT_PROFILES)) throw new Error(`${where}: unknown profile ${s.profile}`);
    });
  }
}

interface Served {
  readonly port: number;
  /** Stops the server; Viceroy answers what it traced. */
  stop(): Promise<TracedRequest[] | undefined>;
}

async function serve(t: RateTarget, profile: string, ctx: RateLimitContext): Promise<Served> {
  switch (t) {
    case 'node-javascript': {
      // The listener's own client address: the TCP peer.
      const server = createServer(createMcpNodeHandler(ctx.nodeOptions(RATE_LIMIT_PROFILES[profile]!) as never));
      await new Promise<void>((ok, fail) => {
        server.once('error', fail);
        server.listen(0, '127.0.0.1', () => ok());
      });
      return {
        port: (server.address() as { port: number }).port,
        stop: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done(undefined));
          }),
      };
    }
    case 'node-native': {
      const h = await startHost({ wasm: ctx.wasm.get(profile)!, toml: ctx.toml, addr: '127.0.0.1:0', workers: 2 });
      return { port: h.port, stop: () => h.close().then(() => undefined) };
    }
    case 'fastly-native': {
      const v = await startTracedViceroy(ctx.wasm.get(profile)!, ctx.toml);
      return { port: v.port, stop: () => v.stop() };
    }
    case 'workerd-javascript':
      // One miniflare for the run: the sequence's Host header gives it a handler of its own.
      return { port: ctx.workerdPort, stop: async () => undefined };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One sequence's steps, in order, on one target. */
async function steps(index: number, s: Sequence, t: RateTarget, port: number, host: string, ctx: RateLimitContext): Promise<Seen[]> {
  const seen: Seen[] = [];
  for (const step of s.steps) {
    if (step.waitMs) await sleep(step.waitMs);
    const token = step.token === undefined ? undefined : wireToken(index, step.token, t);
    const before = token === undefined ? 0 : ctx.introspections(token);
    const r = step.request;
    const req: RawRequest = {
      method: r.method,
      path: r.path,
      headers: [['host', host], ...r.headers, ...(token === undefined ? [] : ([['authorization', `Bearer ${token}`]] as [string, string][]))],
      ...(r.body === undefined ? {} : { body: typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body }),
    };
    const res = await exchange(port, req, STEP_TIMEOUT_MS, undefined, step.from);
    const a = answerOf(res, false);
    seen.push(
      res === null || a === null
        ? null
        : {
            status: Number(a.status),
            retryAfter: res.headers['retry-after'] ?? null,
            contentType: a['content-type'],
            cacheControl: a['cache-control'],
            wwwAuthenticate: a['www-authenticate'],
            allow: a.allow,
            body: Buffer.from(a.body, 'latin1').toString('utf8'),
            ...(token === undefined ? {} : { asked: ctx.introspections(token) - before }),
          },
    );
  }
  return seen;
}

const short = (s: unknown) => {
  const text = typeof s === 'string' ? s : JSON.stringify(s);
  return text.length > 140 ? `${JSON.stringify(text.slice(0, 137))}… (${text.length} bytes)` : JSON.stringify(text);
};

/** The fields of `seen` that differ from `want` (Allow is never sent here). */
function differences(want: Answer, seen: Seen): string[] {
  if (seen === null) return ['no response'];
  const expected = { ...want, allow: '' };
  return (Object.keys(expected) as (keyof typeof expected)[]).filter((k) => expected[k] !== seen[k]).map((k) => `${k}: expected ${short(expected[k])}, got ${short(seen[k])}`);
}

/** Viceroy's trace of a step: its request, the hostcalls the row names, the stubs' answers. */
function traceDifferences(step: Step, host: string, traced: TracedRequest | undefined): string[] {
  if (traced === undefined) return ['viceroy trace: no request traced'];
  const out: string[] = [];
  const line = `${step.request.method} http://${host}${step.request.path}`;
  if (traced.line !== line) out.push(`viceroy trace: request ${short(traced.line)}, expected ${short(line)}`);
  if (JSON.stringify(traced.calls) !== JSON.stringify(step.erl)) out.push(`viceroy trace: hostcalls ${short(traced.calls)}, expected ${short(step.erl)}`);
  const counted = traced.answers.filter((a) => a !== STUB_ANSWER);
  if (counted.length > 0) out.push(`viceroy trace: answers ${short(traced.answers)}: the stubs counted; the rows' Viceroy answers need revisiting`);
  return out;
}

/** The message building refusal row `r` fails with on one path; `accepted` when it does not fail. */
function refusedWith(build: () => unknown): string {
  try {
    build();
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
}

/** Refusal row `n` built on every path: each path with the message it was refused with (`accepted`: none). */
async function refusalPaths(n: number, r: Refusal, ctx: RateLimitContext): Promise<[string, string][]> {
  const options = refusedOptions(r);
  const hostBuild = () => {
    const o = ctx.nodeOptions(options);
    if (r.profile === undefined) return createMcpNodeHandler(o as never);
    const resolved = resolveOptions(o);
    return Engine.create(refusedConfig(r, resolved.configJson), resolved.core);
  };
  const nativeConfig = () => refusedConfig(r, ctx.nativeConfig(options));
  const res = await exchange(ctx.workerdPort, { method: 'GET', path: '/', headers: [['host', `refusal.${n}.diff`]] }, STEP_TIMEOUT_MS);
  const workerd = res === null ? 'no response' : res.status !== 200 ? `${res.status} ${res.body.toString('utf8')}` : ((JSON.parse(res.body.toString('utf8')) as { refused?: string }).refused ?? 'accepted');
  let service: string;
  try {
    await nativeBinary(nativeConfig(), ctx.scratchWasm);
    service = 'accepted';
  } catch (e) {
    const m = (e as Error).message;
    service = m.startsWith(NATIVE_REFUSED) ? m.slice(NATIVE_REFUSED.length) : m;
  }
  return [
    ['node-javascript: createMcpNodeHandler', refusedWith(hostBuild)],
    ['workerd-javascript: createMcpHttpHandler in workerd', workerd],
    ['native build: Engine.create, as pulse-mcp build --wasm before Wizer', refusedWith(() => Engine.create(nativeConfig()))],
    ['native service: the Native service under Wizer', service],
  ];
}

/** What the rows found: each check passed or failed, and what each target answered. */
class Findings {
  passed = 0;
  readonly failures: string[] = [];
  readonly observed: RateLimitResult['observed'] = {};
  verdict(where: string, bad: readonly string[]): void {
    if (bad.length === 0) this.passed++;
    else this.failures.push(`  ✗ ${where}\n${bad.map((b) => `      ${b}`).join('\n')}`);
  }
}

/** One sequence on fresh servers of every target; `ready` is called once they serve (or failed to). */
async function runSequence(index: number, s: Sequence, ctx: RateLimitContext, found: Findings, ready: () => void): Promise<void> {
  const host = `${s.profile}.s${index}.diff`;
  const served = new Map<RateTarget, Served>();
  const seen = new Map<RateTarget, Seen[]>();
  let traced: TracedRequest[] | undefined;
  const t0 = performance.now();
  try {
    await Promise.all(RATE_LIMIT_TARGETS.map(async (t) => served.set(t, await serve(t, s.profile, ctx)))).finally(ready);
    await Promise.all(RATE_LIMIT_TARGETS.map(async (t) => seen.set(t, await steps(index, s, t, served.get(t)!.port, host, ctx))));
  } catch (e) {
    // A target that cannot be served fails its steps below (no answers).
    found.verdict(s.name, [(e as Error).message]);
  } finally {
    for (const [t, v] of served) {
      // A server that fails to stop leaves its answers as they were.
      const trace = await v.stop().catch(() => undefined);
      if (t === 'fastly-native') traced = trace;
    }
  }
  ctx.log?.(`    ${s.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (traced !== undefined && traced.length !== s.steps.length) found.verdict(`[fastly-native] ${s.name}`, [`viceroy trace: ${traced.length} requests for ${s.steps.length} steps`]);
  s.steps.forEach((step, k) => {
    const name = `${s.name} #${k + 1}`;
    found.observed[name] = Object.fromEntries(RATE_LIMIT_TARGETS.map((t) => [t, t === 'fastly-native' ? { ...seen.get(t)?.[k], trace: traced?.[k] } : (seen.get(t)?.[k] ?? null)]));
    for (const t of RATE_LIMIT_TARGETS) {
      const viceroy = t === 'fastly-native';
      const bad = differences((viceroy && step.viceroy) || step.expect, seen.get(t)?.[k] ?? null);
      if (viceroy) bad.push(...traceDifferences(step, host, traced?.[k]));
      found.verdict(`[${t}] ${name}`, bad);
    }
  });
}

export async function runRateLimits(ctx: RateLimitContext): Promise<RateLimitResult> {
  checkRows();
  const { sequences, refusals } = ctx.rows;
  const found = new Findings();
  // The sequences that wait for their window start first, alone, so their servers start fastest;
  // the others run during the wait, and then the refusals: Wizer runs synchronously, holding this
  // process (the origin and node-javascript among it) for a moment, which delays a step at most.
  const waits = (s: Sequence) => s.steps.some((step) => step.waitMs !== undefined);
  const servedFirst: Promise<void>[] = [];
  const waiting = sequences
    .filter(([, s]) => waits(s))
    .map(([i, s]) => {
      let ready!: () => void;
      servedFirst.push(new Promise<void>((r) => (ready = r)));
      return runSequence(i, s, ctx, found, ready);
    });
  await Promise.all(servedFirst);
  await Promise.all(sequences.filter(([, s]) => !waits(s)).map(([i, s]) => runSequence(i, s, ctx, found, () => undefined)));
  for (const [n, r] of refusals) {
    for (const [path, message] of await refusalPaths(n, r, ctx)) found.verdict(`[${path}] ${refusalName(r)}`, message === r.message ? [] : [`expected ${short(r.message)}, got ${short(message)}`]);
  }
  await Promise.all(waiting);
  return {
    passed: found.passed,
    failed: found.failures.length,
    failures: found.failures,
    sequences: sequences.length,
    steps: sequences.reduce((n, [, s]) => n + s.steps.length, 0),
    refusals: refusals.length,
    observed: found.observed,
  };
}
