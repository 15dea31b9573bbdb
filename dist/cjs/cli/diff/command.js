"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.diffCommand = diffCommand;
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
const node_fs_1 = require("node:fs");
const node_http_1 = require("node:http");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const node_url_1 = require("node:url");
const limits_1 = require("../../limits");
const node_1 = require("../../node");
const build_1 = require("../build");
const fastly_manifest_1 = require("../fastly-manifest");
const service_module_1 = require("../service-module");
const usage_1 = require("../usage");
const cases_1 = require("./cases");
const compare_1 = require("./compare");
const evidence_report_1 = require("./evidence-report");
const http_1 = require("./http");
const inputs_1 = require("./inputs");
const viceroy_1 = require("./viceroy");
const DEFAULT_REPORT = 'diff-evidence.json';
/** Beyond the service's own deadline, what an exchange may take (Viceroy instantiates per request). */
const EXCHANGE_MARGIN_MS = 5_000;
const CONCURRENCY = 4;
function parseArgs(args) {
    let modulePath;
    let wasm;
    let fastlyToml;
    let viceroy;
    let report;
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === '--wasm')
            wasm = (0, usage_1.flagValue)(args, i++, 'the path of the Native binary of the module (built from it when absent)');
        else if (arg === '--fastly-toml')
            fastlyToml = (0, usage_1.flagValue)(args, i++, "the path of the service's fastly.toml");
        else if (arg === '--viceroy')
            viceroy = (0, usage_1.flagValue)(args, i++, 'the path of the viceroy executable');
        else if (arg === '--report')
            report = (0, usage_1.flagValue)(args, i++, 'the path of the evidence report to write');
        else if (arg.startsWith('-'))
            throw new usage_1.UsageError(`unknown option ${arg}`);
        else if (modulePath === undefined)
            modulePath = arg;
        else
            throw new usage_1.UsageError(`unexpected argument ${arg}: diff takes one module`);
    }
    if (modulePath === undefined)
        throw new usage_1.UsageError('diff needs a module');
    return { modulePath, wasm, fastlyToml, viceroy, report: report ?? DEFAULT_REPORT };
}
function shapeOf(config) {
    const c = JSON.parse(config.configJson);
    if (c.tools === undefined)
        throw new usage_1.CommandError('the service declares no tools: there is no operation to compare');
    const limits = { ...limits_1.DEFAULT_LIMITS, ...c.limits };
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
const isSecretRef = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 2 && typeof v.secretStore === 'string' && typeof v.key === 'string';
/**
 * The facade's options for the Node reference: each `{ secretStore, key }` replaced by that secret's
 * text from `toml`'s `[local_server.secret_stores]`, where the Native service reads it when served
 * locally. Messages name the option, store and key, never a value.
 */
async function hostOptions(options, toml) {
    const { loadHostConfig: load } = (await import((0, node_url_1.pathToFileURL)((0, node_path_1.join)(__dirname, '..', 'compute-host', 'config.mjs')).href));
    let stores;
    const resolveRefs = (v, at) => {
        if (isSecretRef(v)) {
            try {
                stores ??= load(toml).secretStores;
            }
            catch (e) {
                throw new usage_1.CommandError(`${toml}: ${e.message}`);
            }
            const entry = stores.get(v.secretStore)?.get(v.key);
            if (entry === undefined) {
                throw new usage_1.CommandError(`${at} names the secret "${v.key}" of the secret store "${v.secretStore}", which ${toml} does not hold: the Node reference reads it from [local_server.secret_stores.${v.secretStore}] as the Native service does when served locally`);
            }
            return entry.data.toString('utf8');
        }
        if (Array.isArray(v))
            return v.map((x, i) => resolveRefs(x, `${at}[${i}]`));
        if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
            return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveRefs(x, at === '' ? k : `${at}.${k}`)]));
        }
        return v;
    };
    return resolveRefs(options, '');
}
/** The reference's request listener: the static binding's own, or the host adapter over the facade's options. */
async function referenceListener(modulePath, config, toml) {
    if (config.profile === 'facade') {
        if (config.options.authorization !== undefined) {
            throw new usage_1.CommandError(`${modulePath} exports host options with authorization: pulse-mcp diff sends no access token, so every request would be refused before any tool runs and no operation would be compared; diff the same options without authorization`);
        }
        return (0, node_1.createMcpNodeHandler)(await hostOptions(config.options, toml));
    }
    let mod;
    try {
        mod = (await import((0, node_url_1.pathToFileURL)((0, node_path_1.resolve)(modulePath)).href));
    }
    catch (e) {
        throw new usage_1.CommandError((0, build_1.loadFailure)(modulePath, e));
    }
    const server = mod.server;
    if (typeof server?.nodeListener !== 'function')
        throw new usage_1.CommandError(`${modulePath}: the exported server has no nodeListener(); export const server = mcp({ router, serverInfo }) from @pulse-compute/mcp/pulse`);
    return server.nodeListener.call(server);
}
/** The operations the reference lists, with their inputSchemas. */
async function listedOperations(port, path, timeoutMs) {
    const res = await (0, http_1.exchange)(port, (0, cases_1.toolsListRequest)(path), timeoutMs);
    const tools = (() => {
        try {
            return JSON.parse(res?.body.toString('utf8') ?? '').result?.tools;
        }
        catch {
            return undefined;
        }
    })();
    if (res === null || res.status !== 200 || !Array.isArray(tools)) {
        throw new usage_1.CommandError(`the reference (${compare_1.REFERENCE}) did not list its tools: tools/list answered ${res === null ? 'nothing' : `${res.status} ${JSON.stringify(res.body.toString('utf8').slice(0, 300))}`}`);
    }
    return tools;
}
async function listen(listener) {
    const server = (0, node_http_1.createServer)(listener);
    await new Promise((ok, fail) => {
        server.once('error', fail);
        server.listen(0, '127.0.0.1', () => ok());
    });
    const stop = () => new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
    });
    return { port: server.address().port, stop };
}
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
async function diffCommand(args) {
    const a = parseArgs(args);
    const started = performance.now();
    const date = new Date().toISOString();
    const log = (line) => process.stdout.write(`${line}\n`);
    const config = await (0, service_module_1.serviceConfig)(a.modulePath);
    const served = shapeOf(config);
    const toml = (0, build_1.serviceManifestPath)(a.modulePath, a.fastlyToml);
    // Read first: every target below is configured from it (a missing file is refused by name here).
    await (0, fastly_manifest_1.readFastlyManifest)(toml);
    const timeoutMs = served.deadlineMs + EXCHANGE_MARGIN_MS;
    const stops = [];
    const work = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'pulse-mcp-diff-'));
    // A run stopped from outside still stops Viceroy (the one process it starts) and removes its files;
    // the servers in this process end with it.
    const children = new Set();
    const onSignal = (signal) => {
        for (const pid of children) {
            try {
                process.kill(pid, 'SIGKILL');
            }
            catch {
                // already gone
            }
        }
        (0, node_fs_1.rmSync)(work, { recursive: true, force: true });
        process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let disagreements;
    try {
        const targets = [];
        const reference = await listen(await referenceListener(a.modulePath, config, toml));
        stops.push(reference.stop);
        targets.push({ target: compare_1.REFERENCE, port: reference.port });
        const lines = [`  ${compare_1.REFERENCE.padEnd(16)} the reference: ${config.profile === 'static' ? "the module's server.nodeListener()" : 'createMcpNodeHandler(options)'} on 127.0.0.1:${reference.port}`];
        let wasm;
        if (a.wasm !== undefined) {
            wasm = (0, node_path_1.resolve)(a.wasm);
            lines.push(`  ${'node-native'.padEnd(16)} ${wasm} (--wasm) in the Node Native host`);
        }
        else {
            const t = performance.now();
            wasm = (await (0, build_1.nativeServiceBinary)(config.configJson, a.modulePath, a.fastlyToml, (0, node_path_1.join)(work, 'main.wasm'))).path;
            lines.push(`  ${'node-native'.padEnd(16)} the Native binary built from the module now (${seconds(performance.now() - t)}) in the Node Native host`);
        }
        const { startHost: start } = (await import((0, node_url_1.pathToFileURL)((0, node_path_1.join)(__dirname, '..', 'compute-host', 'host.mjs')).href));
        try {
            const host = await start({ wasm, toml, addr: '127.0.0.1:0', workers: 2 });
            stops.push(() => host.close());
            targets.push({ target: 'node-native', port: host.port });
            lines[lines.length - 1] += ` on 127.0.0.1:${host.port}`;
        }
        catch (e) {
            throw new usage_1.CommandError(`the Node Native host could not serve ${wasm} with ${toml}: ${e.message}`);
        }
        const program = (0, viceroy_1.findViceroy)(a.viceroy);
        if (program !== undefined) {
            const v = await (0, viceroy_1.startViceroy)(program, wasm, toml, (pid) => children.add(pid));
            stops.push(() => v.close().finally(() => children.delete(v.pid)));
            targets.push({ target: 'fastly-native', port: v.port });
            lines.push(`  ${'fastly-native'.padEnd(16)} ${program.version ?? 'viceroy'} (${program.path}, from ${program.from}) on 127.0.0.1:${v.port}`);
        }
        else {
            lines.push(`  ${'fastly-native'.padEnd(16)} skipped: no viceroy on PATH (give --viceroy <path>, or install Fastly's local runtime: cargo install viceroy)`);
        }
        const operations = await listedOperations(reference.port, served.path, timeoutMs);
        let cases;
        try {
            cases = (0, cases_1.diffCases)(operations, served);
        }
        catch (e) {
            if (e instanceof inputs_1.UnsupportedSchema)
                throw new usage_1.CommandError(`${e.message}, which pulse-mcp diff generates no inputs for`);
            throw e;
        }
        log(`pulse-mcp diff ${a.modulePath}: router ${served.routerId} (${operations.length} operation${operations.length === 1 ? '' : 's'}, ${config.profile} profile), ${cases.length} cases`);
        for (const l of lines)
            log(l);
        const t = performance.now();
        const comparison = await (0, compare_1.compareTargets)(cases, targets, { timeoutMs, concurrency: CONCURRENCY, sealedRequestState: served.sealedRequestState });
        log(`cases (the reference's status; ✓ every target answered alike, ✗ a disagreement, with both answers):`);
        for (const r of comparison.results)
            for (const l of (0, compare_1.caseLines)(r))
                log(l);
        const evidence = (0, evidence_report_1.evidenceOf)(new Map([[served.routerId, served]]));
        // Operations the core was not given name no evidence: the report must be about this build.
        const counts = evidence.get(served.routerId).operations;
        for (const [op, byTarget] of comparison.alike)
            for (const [target, n] of byTarget)
                counts.get(op)?.set(target, n);
        (0, node_fs_1.writeFileSync)(a.report, `${JSON.stringify((0, evidence_report_1.evidenceReport)(date, evidence), null, 1)}\n`);
        disagreements = comparison.disagreements;
        const compared = targets.length - 1;
        log(`${cases.length} cases × ${compared} target${compared === 1 ? '' : 's'} against ${compare_1.REFERENCE}: ${disagreements === 0 ? 'all alike' : `${disagreements} case${disagreements === 1 ? '' : 's'} disagree`} ` +
            `(requests ${seconds(performance.now() - t)}, total ${seconds(performance.now() - started)}); evidence written to ${a.report}`);
    }
    finally {
        for (const stop of stops.reverse())
            await stop().catch(() => undefined);
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
        (0, node_fs_1.rmSync)(work, { recursive: true, force: true });
    }
    if (disagreements > 0)
        throw new usage_1.CommandError(`${disagreements} case${disagreements === 1 ? '' : 's'} disagree with ${compare_1.REFERENCE} (listed above)`);
}
