/** The `pulse-mcp` command run in this process, with what it printed and its exit status. */
import { vi } from 'vitest';
import { main } from '../../src/cli/main';

export async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await main(argv);
    return { code, out: out.mock.calls.map((c) => String(c[0])).join(''), err: err.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
