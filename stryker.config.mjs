// StrykerJS for `npm run mutants` (scripts/mutants.mjs): mutates the TypeScript driver, the options
// snapshot and the host adapters, and judges each mutant by the vitest files that exercise them, not
// the whole suite, so that a run stays bounded. PULSE_MUTANTS_MUTATE (comma-separated) narrows the
// mutated files, and with them the test files; PULSE_MUTANTS_REPORT is where the JSON report goes.
const TESTS = {
  'src/core/driver.ts': [
    'test/core/driver-cases.test.ts',
    'test/core/driver-boundaries.test.ts',
    'test/core/handler-deadline.test.ts',
    'test/core/internal-failure.test.ts',
    'test/hosts/http-effect.test.ts',
    'test/authorization/cache.test.ts',
    'test/telemetry/events.test.ts',
  ],
  // The snapshot's rows alone: a file that builds a binding before its tests run makes every
  // mutant here static (judged by the whole file), which multiplies a run's length.
  'src/options.ts': ['test/hosts/options.test.ts'],
  'src/adapter/': [
    'test/hosts/outcomes.fetch.test.ts',
    'test/hosts/outcomes.node.test.ts',
    'test/hosts/node-faults.test.ts',
    'test/hosts/legacy.test.ts',
    'test/hosts/options.test.ts',
    'test/hosts/progress.test.ts',
    'test/hosts/http-effect.test.ts',
    'test/hosts/node-exchange.test.ts',
    'test/hosts/node-listener.test.ts',
    'test/catalog/outcomes.test.ts',
  ],
};

const mutate = (process.env.PULSE_MUTANTS_MUTATE ?? 'src/core/driver.ts,src/options.ts,src/adapter/**/*.ts').split(',');
const testFiles = [
  ...new Set(
    Object.entries(TESTS)
      .filter(([source]) => mutate.some((m) => m === source || (source.endsWith('/') && m.startsWith(source))))
      .flatMap(([, tests]) => tests),
  ),
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts', related: false },
  mutate,
  testFiles,
  coverageAnalysis: 'perTest',
  // Two cores are shared: one test runner, and patience with a loaded machine.
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ['json', 'progress'],
  jsonReporter: { fileName: process.env.PULSE_MUTANTS_REPORT ?? '.test-results/mutants/stryker/mutation.json' },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['native/target', 'native/fuzz', '.tools', '.test-results', 'dist', 'bin', 'pkg', 'tools/qualify/node_modules'],
  cleanTempDir: 'always',
  // PULSE_MUTANTS_INCREMENTAL=1 reuses the last run's result for every mutant whose code and
  // covering tests are unchanged: a quick re-check after adding tests. A full run is the record.
  incremental: process.env.PULSE_MUTANTS_INCREMENTAL === '1',
  incrementalFile: '.test-results/mutants/stryker-incremental.json',
};
