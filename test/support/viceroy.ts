/**
 * The Fastly Native service in tests: configured from the package's prebuilt service, served on real
 * Viceroy on a free loopback port, stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { configureNativeService } from '../../src/cli/native-service';
import { ensureViceroy } from '../../scripts/viceroy.mjs';
import { freePort } from './ports';

const ROOT = resolve(__dirname, '..', '..');

/**
 * The package's Native service configured with `configJson`, written to `out`: the same function
 * `pulse-mcp build --wasm` runs (Wizer, well under a second).
 */
export async function buildNative(configJson: string, out: string): Promise<void> {
  await configureNativeService(configJson, out, ROOT);
}

export interface ServedViceroy {
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything Viceroy printed so far (its log endpoints write to stdout). */
  readonly output: string;
  stop(): Promise<void>;
}

/**
 * Serves `wasm` with the Fastly manifest `toml` on `port` (a free one when not given) and waits until
 * Viceroy answers (30 s at most).
 */
export async function serveViceroy(toml: string, wasm: string, port?: number): Promise<ServedViceroy> {
  port ??= await freePort();
  const child = spawn(ensureViceroy(), ['serve', '-C', toml, '--addr', `127.0.0.1:${port}`, wasm], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const served: ServedViceroy = {
    port,
    child,
    get output() {
      return output;
    },
    async stop() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
      child.kill('SIGTERM');
      await exited;
    },
  };
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) });
      return served;
    } catch {
      if (Date.now() > until) {
        await served.stop();
        throw new Error(`viceroy did not listen:\n${output.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}
