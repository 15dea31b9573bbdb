/**
 * Viceroy, Fastly's local Compute runtime, as the fastly-native target of `pulse-mcp diff`: found
 * where the user says (`--viceroy <path>`) or on PATH, started the way `fastly compute serve` starts
 * it (`viceroy -C <absolute fastly.toml> --addr 127.0.0.1:PORT <wasm>`), waited for until it accepts
 * connections, and stopped by its PID.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import net from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { CommandError } from '../usage';

/** How long Viceroy may take to compile the module and listen. */
const START_TIMEOUT_MS = 30_000;
/** How long it may take to exit after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 5_000;

export interface ViceroyProgram {
  readonly path: string;
  /** How it was found: `--viceroy` or `PATH`. */
  readonly from: '--viceroy' | 'PATH';
  /** What `viceroy --version` printed, when it did. */
  readonly version: string | undefined;
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

function versionOf(path: string): string | undefined {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

/** Viceroy at `given` (refused when not an executable file), else the first on PATH; undefined when none. */
export function findViceroy(given: string | undefined): ViceroyProgram | undefined {
  if (given !== undefined) {
    const path = resolve(given);
    if (!executable(path)) throw new CommandError(`--viceroy ${given}: not an executable file`);
    return { path, from: '--viceroy', version: versionOf(path) };
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, 'viceroy');
    if (executable(path)) return { path, from: 'PATH', version: versionOf(path) };
  }
  return undefined;
}

/** A loopback port free a moment ago: Viceroy takes no port 0. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => ok(port));
    });
  });
}

/** Whether something accepts a connection on 127.0.0.1:`port` within a moment. */
function accepts(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = net.connect({ host: '127.0.0.1', port });
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

export interface RunningViceroy {
  readonly port: number;
  readonly pid: number;
  close(): Promise<void>;
}

/**
 * Serves `wasm` on Viceroy with `toml` (made absolute, as the Fastly CLI passes it). Resolves once it
 * accepts connections; refuses with its last output when it exits first or does not listen in time.
 * `spawned` learns its PID at once, so a caller interrupted while it starts can still stop it.
 */
export async function startViceroy(program: ViceroyProgram, wasm: string, toml: string, spawned: (pid: number) => void): Promise<RunningViceroy> {
  const port = await freePort();
  const child = spawn(program.path, ['-C', resolve(toml), '--addr', `127.0.0.1:${port}`, resolve(wasm)], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) spawned(child.pid);
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString('utf8')).slice(-4096);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = child.exitCode !== null;
  const exit = new Promise<void>((done) => {
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
    if (exited || child.pid === undefined) return;
    process.kill(child.pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), STOP_TIMEOUT_MS)));
    if ((await Promise.race([exit, late])) === 'late' && !exited) {
      process.kill(child.pid, 'SIGKILL');
      await exit;
    }
    clearTimeout(timer);
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!exited && Date.now() < deadline) {
    if (await accepts(port)) return { port, pid: child.pid!, close };
    await new Promise((r) => setTimeout(r, 100));
  }
  await close();
  const why = exited ? 'it exited' : `nothing listened within ${START_TIMEOUT_MS / 1000} s`;
  throw new CommandError(`Viceroy (${program.path}) did not serve ${wasm} on 127.0.0.1:${port}: ${why}${output.trim() ? `; its output:\n${output.trim()}` : ''}`);
}
