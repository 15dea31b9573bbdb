#!/usr/bin/env node
// npm run diff — bundles the differential runner (tools/diff/run.ts, TypeScript sources of the hosts
// included) with esbuild and runs it. Plain .mjs helpers stay external so they find their own files.
// Flags pass through: --only <substring of case names>, --verbose, --with-js (build the JavaScript package if absent).
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { ROOT, WORK, bundleForNode } from '../../scripts/edge-lib.mjs';

const externalMjs = {
  name: 'external-mjs',
  setup(build) {
    build.onResolve({ filter: /\.mjs$/ }, (args) => {
      const path = resolve(dirname(args.importer), args.path);
      // The edge service is bundled with the sources it imports: one copy of the router code.
      return path.startsWith(join(ROOT, 'edge') + '/') ? undefined : { path, external: true };
    });
  },
};

const out = join(WORK, 'diff-run.mjs');
await bundleForNode(join(ROOT, 'tools', 'diff', 'run.ts'), out, { plugins: [externalMjs], external: ['miniflare', 'esbuild'], loader: { '.json': 'json' } });
const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', out, ...process.argv.slice(2)], { stdio: 'inherit', cwd: ROOT });
process.exit(r.status ?? 1);
