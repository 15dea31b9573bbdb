import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The package's self-reference (edge/context.mjs imports '@pulse-compute/mcp/pulse') resolves to
  // the sources under test, as the edge scripts' bundles alias it.
  resolve: { alias: [{ find: /^@pulse-compute\/mcp\/pulse$/, replacement: fileURLToPath(new URL('./src/pulse.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    // The sources import glue derived from the committed core (src/core/generated, gitignored).
    globalSetup: ['scripts/core-glue.mjs'],
    pool: 'forks',
    // --expose-gc lets test/peers.test.ts measure heap growth after forced collections.
    poolOptions: { forks: { execArgv: ['--expose-gc'], maxForks: 2, minForks: 1 } },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
