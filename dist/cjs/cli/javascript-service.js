"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_DEADLINE_NOTE = exports.JS_COMPUTE_VERSION = void 0;
exports.buildJavaScriptService = buildJavaScriptService;
/**
 * The Fastly JavaScript binary of a static binding whose router has JavaScript handlers. An entry
 * written to a temporary directory imports the module's `server` and answers Fastly's fetch event
 * with `server.handle({ request })`; `js-compute-runtime` of `@fastly/js-compute` (an optional peer,
 * pinned) bundles it with the module and this package (esbuild, the `fastly` condition, a browser
 * platform) and pre-initialises it. The runtime has no `WebAssembly`, so the core runs as its
 * wasm2js build, and no CPU deadline: the binding's execution limit does not hold there.
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_module_1 = require("node:module");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const router_1 = require("../router");
const compute_binary_1 = require("./compute-binary");
const usage_1 = require("./usage");
/** js-compute's version, pinned: the runtime it embeds is what the service runs on. */
exports.JS_COMPUTE_VERSION = '3.46.0';
const JS_COMPUTE = '@fastly/js-compute';
const JS_COMPUTE_BIN = 'js-compute-runtime';
/** js-compute bundles and pre-initialises in about 20 s on two cores; a hung build ends here. */
const JS_COMPUTE_TIMEOUT_MS = 600_000;
/** What the build prints beside the binary: the documented limit of this target. */
exports.NO_DEADLINE_NOTE = `Fastly's JavaScript runtime realizes no CPU deadline: the binding's ${router_1.STATIC_LIMITS.deadlineMs / 1000} s execution limit does not hold ` +
    'there (a timer cannot interrupt synchronous JavaScript); Fastly Native (--target fastly-native) realizes it';
/**
 * js-compute's CLI script: the optional peer installed in the service's project (searched from
 * `project` up), else beside this package, at the pinned version. Looked up by directory, since
 * the package exports no `package.json`.
 */
function jsComputeRuntime(project) {
    // --save-exact: a range would let a later install take another version, which the build refuses.
    const install = `npm install --save-dev --save-exact ${JS_COMPUTE}@${exports.JS_COMPUTE_VERSION}`;
    for (const from of [(0, node_path_1.join)((0, node_path_1.resolve)(project), 'package.json'), __filename]) {
        for (const nodeModules of (0, node_module_1.createRequire)(from).resolve.paths(JS_COMPUTE) ?? []) {
            const manifest = (0, node_path_1.join)(nodeModules, JS_COMPUTE, 'package.json');
            if (!(0, node_fs_1.existsSync)(manifest))
                continue;
            const pkg = JSON.parse((0, node_fs_1.readFileSync)(manifest, 'utf8'));
            if (pkg.version !== exports.JS_COMPUTE_VERSION) {
                throw new usage_1.CommandError(`${JS_COMPUTE} ${String(pkg.version)} is installed (${(0, node_path_1.dirname)(manifest)}); the Fastly JavaScript build uses ${exports.JS_COMPUTE_VERSION}: ${install}`);
            }
            const bin = pkg.bin?.[JS_COMPUTE_BIN];
            const script = typeof bin === 'string' ? (0, node_path_1.join)((0, node_path_1.dirname)(manifest), bin) : undefined;
            if (script === undefined || !(0, node_fs_1.existsSync)(script))
                throw new usage_1.CommandError(`${JS_COMPUTE} ${exports.JS_COMPUTE_VERSION} in ${(0, node_path_1.dirname)(manifest)} has no ${JS_COMPUTE_BIN}; reinstall it: ${install}`);
            return script;
        }
    }
    throw new usage_1.CommandError(`the Fastly JavaScript build compiles the service with ${JS_COMPUTE}, an optional peer dependency that is not installed: ${install}`);
}
/** The entry js-compute compiles: the module's binding answering Fastly's fetch event. */
function entrySource(modulePath) {
    return [
        `import { server } from ${JSON.stringify((0, node_path_1.resolve)(modulePath))};`,
        '',
        "// js-compute 3.46 builds `export default { fetch }` but answers 500 at run time: the fetch event it is.",
        '// The downstream client address, the key of rateLimit\'s budgets per address (which never accumulate',
        '// here: every request is a fresh instance).',
        "addEventListener('fetch', (event) => event.respondWith(server.handle({ request: event.request, clientAddress: event.client?.address })));",
        '',
    ].join('\n');
}
/** Runs js-compute; its output (bundler and Wizer messages) is returned for a failure's report. */
function runJsCompute(script, args, cwd) {
    return new Promise((done, fail) => {
        const child = (0, node_child_process_1.spawn)(process.execPath, [script, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        const keep = (d) => {
            // The last lines say why; a runaway build must not grow this without bound.
            output = (output + d.toString('utf8')).slice(-16_384);
        };
        child.stdout.on('data', keep);
        child.stderr.on('data', keep);
        const timer = setTimeout(() => child.kill('SIGKILL'), JS_COMPUTE_TIMEOUT_MS);
        child.once('error', (e) => {
            clearTimeout(timer);
            fail(new usage_1.CommandError(`${JS_COMPUTE_BIN} (${script}) could not run: ${e.code ?? e.message}`));
        });
        child.once('close', (status, signal) => {
            clearTimeout(timer);
            done({ status: signal === null ? status : null, output });
        });
    });
}
/**
 * Writes to `out` the Fastly JavaScript binary of `modulePath`, which exports the static binding
 * `server` (made by mcp()). js-compute runs in the module's directory, as the Fastly CLI runs it
 * in a project, so the project's own js-compute configuration applies. A refusal is a
 * `CommandError` with js-compute's reason.
 */
async function buildJavaScriptService(modulePath, out) {
    const project = (0, node_path_1.dirname)((0, node_path_1.resolve)(modulePath));
    const script = jsComputeRuntime(project);
    const target = (0, node_path_1.resolve)(out);
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(target), { recursive: true });
    // Written beside the target and renamed: js-compute leaves an empty file behind when it fails.
    const partial = `${target}.partial-${process.pid}`;
    const work = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'pulse-mcp-js-'));
    try {
        const entry = (0, node_path_1.join)(work, 'entry.mjs');
        (0, node_fs_1.writeFileSync)(entry, entrySource(modulePath));
        const r = await runJsCompute(script, [entry, partial], project);
        if (r.status !== 0 || !(0, node_fs_1.existsSync)(partial) || (0, node_fs_1.statSync)(partial).size === 0) {
            const said = r.output.trim().split('\n').slice(-20).join('\n');
            throw new usage_1.CommandError(`${JS_COMPUTE_BIN} could not build ${modulePath}${r.status === null ? ' (ended by a signal or the time limit)' : ''}${said ? `:\n${said}` : ''}`);
        }
        const bytes = (0, node_fs_1.readFileSync)(partial);
        const importModules = await (0, compute_binary_1.computeImports)(bytes, JS_COMPUTE_BIN);
        (0, node_fs_1.renameSync)(partial, target);
        process.stdout.write(`wrote ${out} (${bytes.length} bytes): the Fastly JavaScript service of ${modulePath} (${JS_COMPUTE} ${exports.JS_COMPUTE_VERSION}), imports ${importModules.join(', ')}\n`);
        process.stderr.write(`pulse-mcp: note: ${exports.NO_DEADLINE_NOTE}\n`);
        return { path: target, bytes: bytes.length, importModules };
    }
    finally {
        (0, node_fs_1.rmSync)(partial, { force: true });
        (0, node_fs_1.rmSync)(work, { recursive: true, force: true });
    }
}
