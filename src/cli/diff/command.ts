/**
 * `pulse-mcp diff <module>` (usage in ../main.ts): the differential run of one service module. The
 * module served on Node is the reference (node-javascript): the static binding's own
 * `server.nodeListener()`, or, for the host facade, `createMcpNodeHandler(options)` with its
 * secret-store references read from the fastly.toml's `[local_server.secret_stores]`. Its Native
 * binary (given, or built now as `pulse-mcp build --target fastly-native --wasm` builds it) runs in
 * the Node Native host (node-native) and, when Viceroy is found, on Viceroy (fastly-native). The cases
 * (./cases) come from the operations the reference lists and the binding's own limits; every answer
 * is compared with the reference's (./compare), and the evidence report `pulse-mcp build --evidence`
 * reads is written (./evidence-report). Every server and process started here is stopped before
 * the command returns, on failure too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_LIMITS } from '../../limits';
import { createMcpNodeHandler } from '../../node';
import type { McpHttpOptions } from '../../options';
import { loadFailure, nativeServiceBinary, serviceManifestPath } from '../build';
import { readFastlyManifest } from '../fastly-manifest';
import { serviceConfig, type ServiceConfig } from '../service-module';
import { CommandError, flagValue, UsageError } from '../usage';
import { diffCases, toolsListRequest, type DeclaredOperation } from './cases';
import { caseLines, compareTargets, REFERENCE, type TargetAddress } from './compare';
import { evidenceOf, evidenceReport, type Evidence } from './evidence-report';
import { exchange } from './http';
import { UnsupportedSchema } from './inputs';
// Types only: the Node Native host's modules are plain ESM, imported at run time beside this file.
import type { HostConfig, loadHostConfig } from '../compute-host/config.mjs' with { 'resolution-mode': 'import' };
import type { startHost } from '../compute-host/host.mjs' with { 'resolution-mode': 'import' };
import { findViceroy, startViceroy, type ViceroyProgram } from './viceroy';

const DEFAULT_REPORT = 'diff-evidence.json';
/** Beyond the service's own deadline, what an exchange may take (Viceroy instantiates per request). */
const EXCHANGE_MARGIN_MS = 5_000;
const CONCURRENCY = 4;

interface DiffArgs {
  readonly modulePath: string;
  readonly wasm?: string;
  readonly fastlyToml?: string;
  readonly viceroy?: string;
  readonly report: string;
}

function parseArgs(args: readonly string[]): DiffArgs {
  let modulePath: string | undefined;
  let wasm: string | undefined;
  let fastlyToml: string | undefined;
  let viceroy: string | undefined;
  let report: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--wasm') wasm = flagValue(args, i++, 'the path of the Native binary of the module (built from it when absent)');
    else if (arg === '--fastly-toml') fastlyToml = flagValue(args, i++, "the path of the service's fastly.toml");
    else if (arg === '--viceroy') viceroy = flagValue(args, i++, 'the path of the viceroy executable');
    else if (arg === '--report') report = flagValue(args, i++, 'the path of the evidence report to write');
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (modulePath === undefined) modulePath = arg;
    else throw new UsageError(`unexpected argument ${arg}: diff takes one module`);
  }
  if (modulePath === undefined) throw new UsageError('diff needs a module');
  return { modulePath, wasm, fastlyToml, viceroy, report: report ?? DEFAULT_REPORT };
}

/** What the run reads of the service's engine configuration (as the Native service embeds it). */
interface ServiceShape {
  readonly routerId: string;
  readonly catalogHash: string;
  /** The operations the core was given. */
  readonly operations: ReadonlySet<string>;
  readonly path: string;
  readonly requestBytes: number;
  readonly depth: number;
  readonly deadlineMs: number;
  readonly sealedRequestState: boolean;
}

function shapeOf(config: ServiceConfig): ServiceShape {
  const c = JSON.parse(config.configJson) as {
    path?: string;
    limits?: Partial<typeof DEFAULT_LIMITS>;
    tools?: { routerId: string; catalogHash: string; tools: { name: string }[] };
    requestStateKey?: unknown;
  };
  if (c.tools === undefined) throw new CommandError('the service declares no tools: there is no operation to compare');
  const limits = { ...DEFAULT_LIMITS, ...c.limits };
  return {
    routerId: c.tools.routerId,
    catalogHash: c.tools.catalogHash,
    operations: new Set(c.tools.tools.map((t) => t.name)),
    path: c.path ?? '/mcp',
    requestBytes: limits.requestBytes,
    depth: limits.depth,
    deadlineMs: limits.deadlineMs,
    sealedRequestState: c.requestStateKey !== undefined,
  };
}

/** A secret-store reference as the Native build takes it. */
const isSecretRef = (v: unknown): v is { secretStore: string; key: string } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 2 && typeof (v as { secretStore?: unknown }).secretStore === 'string' && typeof (v as { key?: unknown }).key === 'string';

/**
 * The facade's options for the Node reference: each `{ secretStore, key }` replaced by that secret's
 * text from `toml`'s `[local_server.secret_stores]`, where the Native service reads it when served
 * locally. Messages name the option, store and key, never a value.
 */
async function hostOptions(options: Record<string, unknown>, toml: string): Promise<McpHttpOptions> {
  const { loadHostConfig: load } = (await import(pathToFileURL(join(__dirname, '..', 'compute-host', 'config.mjs')).href)) as { loadHostConfig: typeof loadHostConfig };
  let stores: HostConfig['secretStores'] | undefined;
  const resolveRefs = (v: unknown, at: string): unknown => {
    if (isSecretRef(v)) {
      try {
        stores ??= load(toml).secretStores;
      } catch (e) {
        throw new CommandError(`${toml}: ${(e as Error).message}`);
      }
      const entry = stores.get(v.secretStore)?.get(v.key);
      if (entry === undefined) {
        throw new CommandError(`${at} names the secret "${v.key}" of the secret store "${v.secretStore}", which ${toml} does not hold: the Node reference reads it from [local_server.secret_stores.${v.secretStore}] as the Native service does when served locally`);
      }
      return entry.data.toString('utf8');
    }
    if (Array.isArray(v)) return v.map((x, i) => resolveRefs(x, `${at}[${i}]`));
    if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveRefs(x, at === '' ? k : `${at}.${k}`)]));
    }
    return v;
  };
  return resolveRefs(options, '') as McpHttpOptions;
}

/** The reference's request listener: the static binding's own, or the host adapter over the facade's options. */
async function referenceListener(modulePath: string, config: ServiceConfig, toml: string): Promise<RequestListener> {
  if (config.profile === 'facade') {
    if (config.options.authorization !== undefined) {
      throw new CommandError(
        `${modulePath} exports host options with authorization: pulse-mcp diff sends no access token, so every request would be refused before any tool runs and no operation would be compared; diff the same options without authorization`,
      );
    }
    return createMcpNodeHandler(await hostOptions(config.options, toml)) as unknown as RequestListener;
  }
  let mod: { server?: { nodeListener?: unknown } };
  try {
    mod = (await import(pathToFileURL(resolve(modulePath)).href)) as typeof mod;
  } catch (e) {
    throw new CommandError(loadFailure(modulePath, e));
  }
  const server = mod.server;
  if (typeof server?.nodeListener !== 'function') throw new CommandError(`${modulePath}: the exported server has no nodeListener(); export const server = mcp({ router, serverInfo }) from @pulse-compute/mcp/pulse`);
  return (server.nodeListener as () => RequestListener).call(server);
}

/** The operations the reference lists, with their inputSchemas. */
async function listedOperations(port: number, path: string, timeoutMs: number): Promise<DeclaredOperation[]> {
  const res = await exchange(port, toolsListRequest(path), timeoutMs);
  const tools = (() => {
    try {
      return (JSON.parse(res?.body.toString('utf8') ?? '') as { result?: { tools?: unknown } }).result?.tools;
    } catch {
      return undefined;
    }
  })();
  if (res === null || res.status !== 200 || !Array.isArray(tools)) {
    throw new CommandError(`the reference (${REFERENCE}) did not list its tools: tools/list answered ${res === null ? 'nothing' : `${res.status} ${JSON.stringify(res.body.toString('utf8').slice(0, 300))}`}`);
  }
  return tools as DeclaredOperation[];
}

type Stop = () => Promise<void>;

async function listen(listener: RequestListener): Promise<{ port: number; stop: Stop }> {
  const server = createServer(listener);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const stop = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return { port: (server.address() as { port: number }).port, stop };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function diffCommand(args: readonly string[]): Promise<void> {
  const a = parseArgs(args);
  const started = performance.now();
  const date = new Date().toISOString();
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const config = await serviceConfig(a.modulePath);
  const served = shapeOf(config);
  const toml = serviceManifestPath(a.modulePath, a.fastlyToml);
  // Read first: every target below is configured from it (a missing file is refused by name here).
  await readFastlyManifest(toml);
  const timeoutMs = served.deadlineMs + EXCHANGE_MARGIN_MS;

  const stops: Stop[] = [];
  const work = mkdtempSync(join(tmpdir(), 'pulse-mcp-diff-'));
  // A run stopped from outside still stops Viceroy (the one process it starts) and removes its files;
  // the servers in this process end with it.
  const children = new Set<number>();
  const onSignal = (signal: NodeJS.Signals) => {
    for (const pid of children) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(work, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let disagreements: number;
  try {
    const targets: TargetAddress[] = [];
    const reference = await listen(await referenceListener(a.modulePath, config, toml));
    stops.push(reference.stop);
    targets.push({ target: REFERENCE, port: reference.port });
    const lines = [`  ${REFERENCE.padEnd(16)} the reference: ${config.profile === 'static' ? "the module's server.nodeListener()" : 'createMcpNodeHandler(options)'} on 127.0.0.1:${reference.port}`];

    let wasm: string;
    if (a.wasm !== undefined) {
      wasm = resolve(a.wasm);
      lines.push(`  ${'node-native'.padEnd(16)} ${wasm} (--wasm) in the Node Native host`);
    } else {
      const t = performance.now();
      wasm = (await nativeServiceBinary(config.configJson, a.modulePath, a.fastlyToml, join(work, 'main.wasm'))).path;
      lines.push(`  ${'node-native'.padEnd(16)} the Native binary built from the module now (${seconds(performance.now() - t)}) in the Node Native host`);
    }
    const { startHost: start } = (await import(pathToFileURL(join(__dirname, '..', 'compute-host', 'host.mjs')).href)) as { startHost: typeof startHost };
    try {
      const host = await start({ wasm, toml, addr: '127.0.0.1:0', workers: 2 });
      stops.push(() => host.close());
      targets.push({ target: 'node-native', port: host.port });
      lines[lines.length - 1] += ` on 127.0.0.1:${host.port}`;
    } catch (e) {
      throw new CommandError(`the Node Native host could not serve ${wasm} with ${toml}: ${(e as Error).message}`);
    }

    const program: ViceroyProgram | undefined = findViceroy(a.viceroy);
    if (program !== undefined) {
      const v = await startViceroy(program, wasm, toml, (pid) => children.add(pid));
      stops.push(() => v.close().finally(() => children.delete(v.pid)));
      targets.push({ target: 'fastly-native', port: v.port });
      lines.push(`  ${'fastly-native'.padEnd(16)} ${program.version ?? 'viceroy'} (${program.path}, from ${program.from}) on 127.0.0.1:${v.port}`);
    } else {
      lines.push(`  ${'fastly-native'.padEnd(16)} skipped: no viceroy on PATH (give --viceroy <path>, or install Fastly's local runtime: cargo install viceroy)`);
    }

    const operations = await listedOperations(reference.port, served.path, timeoutMs);
    let cases;
    try {
      cases = diffCases(operations, served);
    } catch (e) {
      if (e instanceof UnsupportedSchema) throw new CommandError(`${e.message}, which pulse-mcp diff generates no inputs for`);
      throw e;
    }
    log(`pulse-mcp diff ${a.modulePath}: router ${served.routerId} (${operations.length} operation${operations.length === 1 ? '' : 's'}, ${config.profile} profile), ${cases.length} cases`);
    for (const l of lines) log(l);
    const t = performance.now();
    const comparison = await compareTargets(cases, targets, { timeoutMs, concurrency: CONCURRENCY, sealedRequestState: served.sealedRequestState });
    log(`cases (the reference's status; ✓ every target answered alike, ✗ a disagreement, with both answers):`);
    for (const r of comparison.results) for (const l of caseLines(r)) log(l);

    const evidence: Evidence = evidenceOf(new Map([[served.routerId, served]]));
    // Operations the core was not given name no evidence: the report must be about this build.
    const counts = evidence.get(served.routerId)!.operations;
    for (const [op, byTarget] of comparison.alike) for (const [target, n] of byTarget) counts.get(op)?.set(target, n);
    writeFileSync(a.report, `${JSON.stringify(evidenceReport(date, evidence), null, 1)}\n`);
    disagreements = comparison.disagreements;
    const compared = targets.length - 1;
    log(
      `${cases.length} cases × ${compared} target${compared === 1 ? '' : 's'} against ${REFERENCE}: ${disagreements === 0 ? 'all alike' : `${disagreements} case${disagreements === 1 ? '' : 's'} disagree`} ` +
        `(requests ${seconds(performance.now() - t)}, total ${seconds(performance.now() - started)}); evidence written to ${a.report}`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    rmSync(work, { recursive: true, force: true });
  }
  if (disagreements > 0) throw new CommandError(`${disagreements} case${disagreements === 1 ? '' : 's'} disagree with ${REFERENCE} (listed above)`);
}
