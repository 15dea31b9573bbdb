"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.findViceroy = findViceroy;
exports.startViceroy = startViceroy;
/**
 * Viceroy, Fastly's local Compute runtime, as the fastly-native target of `pulse-mcp diff`: found
 * where the user says (`--viceroy <path>`) or on PATH, started the way `fastly compute serve` starts
 * it (`viceroy -C <absolute fastly.toml> --addr 127.0.0.1:PORT <wasm>`), waited for until it accepts
 * connections, and stopped by its PID.
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_net_1 = __importDefault(require("node:net"));
const node_path_1 = require("node:path");
const usage_1 = require("../usage");
/** How long Viceroy may take to compile the module and listen. */
const START_TIMEOUT_MS = 30_000;
/** How long it may take to exit after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 5_000;
const executable = (path) => {
    try {
        (0, node_fs_1.accessSync)(path, node_fs_1.constants.X_OK);
        return (0, node_fs_1.statSync)(path).isFile();
    }
    catch {
        return false;
    }
};
function versionOf(path) {
    const r = (0, node_child_process_1.spawnSync)(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}
/** Viceroy at `given` (refused when not an executable file), else the first on PATH; undefined when none. */
function findViceroy(given) {
    if (given !== undefined) {
        const path = (0, node_path_1.resolve)(given);
        if (!executable(path))
            throw new usage_1.CommandError(`--viceroy ${given}: not an executable file`);
        return { path, from: '--viceroy', version: versionOf(path) };
    }
    for (const dir of (process.env.PATH ?? '').split(node_path_1.delimiter)) {
        if (dir === '')
            continue;
        const path = (0, node_path_1.join)(dir, 'viceroy');
        if (executable(path))
            return { path, from: 'PATH', version: versionOf(path) };
    }
    return undefined;
}
/** A loopback port free a moment ago: Viceroy takes no port 0. */
function freePort() {
    return new Promise((ok, fail) => {
        const s = node_net_1.default.createServer();
        s.once('error', fail);
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address();
            s.close(() => ok(port));
        });
    });
}
/** Whether something accepts a connection on 127.0.0.1:`port` within a moment. */
function accepts(port) {
    return new Promise((ok) => {
        const s = node_net_1.default.connect({ host: '127.0.0.1', port });
        s.setTimeout(500);
        s.once('connect', () => {
            s.destroy();
            ok(true);
        });
        s.once('error', () => ok(false));
        s.once('timeout', () => {
            s.destroy();
            ok(false);
        });
    });
}
/**
 * Serves `wasm` on Viceroy with `toml` (made absolute, as the Fastly CLI passes it). Resolves once it
 * accepts connections; refuses with its last output when it exits first or does not listen in time.
 * `spawned` learns its PID at once, so a caller interrupted while it starts can still stop it.
 */
async function startViceroy(program, wasm, toml, spawned) {
    const port = await freePort();
    const child = (0, node_child_process_1.spawn)(program.path, ['-C', (0, node_path_1.resolve)(toml), '--addr', `127.0.0.1:${port}`, (0, node_path_1.resolve)(wasm)], { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined)
        spawned(child.pid);
    let output = '';
    const keep = (d) => {
        output = (output + d.toString('utf8')).slice(-4096);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let exited = child.exitCode !== null;
    const exit = new Promise((done) => {
        child.once('exit', () => {
            exited = true;
            done();
        });
        child.once('error', (e) => {
            keep(Buffer.from(e.message));
            exited = true;
            done();
        });
    });
    const close = async () => {
        if (exited || child.pid === undefined)
            return;
        process.kill(child.pid, 'SIGTERM');
        let timer;
        const late = new Promise((r) => (timer = setTimeout(() => r('late'), STOP_TIMEOUT_MS)));
        if ((await Promise.race([exit, late])) === 'late' && !exited) {
            process.kill(child.pid, 'SIGKILL');
            await exit;
        }
        clearTimeout(timer);
    };
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!exited && Date.now() < deadline) {
        if (await accepts(port))
            return { port, pid: child.pid, close };
        await new Promise((r) => setTimeout(r, 100));
    }
    await close();
    const why = exited ? 'it exited' : `nothing listened within ${START_TIMEOUT_MS / 1000} s`;
    throw new usage_1.CommandError(`Viceroy (${program.path}) did not serve ${wasm} on 127.0.0.1:${port}: ${why}${output.trim() ? `; its output:\n${output.trim()}` : ''}`);
}
