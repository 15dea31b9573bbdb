// An example server as a user runs it: its own process on 127.0.0.1 (PORT 0), ready once its last
// start-up line says `… listening on http://…/mcp`; stopped by its PID with SIGTERM.
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface RunningExample {
  readonly url: URL;
  /** Everything it printed on stdout so far. */
  output(): string;
  stop(): Promise<void>;
}

export function startExample(script: string, timeoutMs = 20_000): Promise<RunningExample> {
  const child = spawn(process.execPath, [path.join(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => (out += d));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise<RunningExample>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${script}: no listening line within ${timeoutMs} ms: ${out}`));
    }, timeoutMs);
    const check = (): void => {
      const m = / listening on (http:\/\/\S+\/mcp)\n$/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve({ url: new URL(m[1]!), output: () => out, stop });
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}: ${out}`));
    });
  });
}
