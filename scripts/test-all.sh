#!/usr/bin/env bash
# The one test command (README: `npm ci && npm test`; `npm test` runs this file).
# Runs every suite, keeps going after failures, sums the counts of all suites and prints exactly one
# final line `N passed, N failed`; exits non-zero when anything failed.
#   suites: toolchain set-up, Viceroy (built once into .tools/viceroy), build, the committed dist/ equal to that build,
#   cargo test (native/), committed-artifact check, vitest on the
#   machine's Node and on Nodes 22 and 24 (npm `node` package), the harness's own tests (reported apart:
#   they check test data and tooling, not the product), `npm run diff` (Node, Native in the Node
#   Native host and on Viceroy, workerd, the JavaScript package), `npm run qualify` and
#   `npm run conformance` (the official MCP conformance suite on the Node host, and on the Native
#   build in the Node Native host and on Viceroy), `npm run acceptance` (the installed package), and a bounded fuzzing pass (`npm run fuzz:smoke`).
# Counts are honest: a skipped, pending or todo test is a failure, a suite that prints no summary is
# a failure, and a suite whose npm script is missing is a failure.
# Per-suite logs and reports go to .test-results/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
OUT="$ROOT/.test-results"
mkdir -p "$OUT"
PASSED=0
FAILED=0
NODE22_SPEC=${PULSE_NODE22:-node@22.23.3}
NODE24_SPEC=${PULSE_NODE24:-node@24.11.1}
SCRIPT_TIMEOUT=${PULSE_SCRIPT_TIMEOUT:-900}

count() { # suite passed failed
  PASSED=$((PASSED + $2))
  FAILED=$((FAILED + $3))
  printf '== %-22s %s passed, %s failed\n' "$1" "$2" "$3"
}

# A suite that is one pass/fail unit (its exit status).
unit() { # suite logfile command...
  local suite=$1 log=$2
  shift 2
  if "$@" >"$log" 2>&1; then count "$suite" 1 0; else
    tail -n 40 "$log" | sed 's/^/   | /'
    count "$suite" 0 1
  fi
}

# Counts from a vitest JSON report; a file that failed to load counts as one failure.
vitest_counts() { # report.json
  node -e '
    const fs = require("fs");
    let r;
    try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch { console.log("0 1"); process.exit(0); }
    const broken = (r.testResults || []).filter((f) => f.status === "failed" && (f.assertionResults || []).length === 0).length;
    // Skipped, pending and todo tests prove nothing: they count as failures.
    const idle = (r.numPendingTests || 0) + (r.numTodoTests || 0);
    console.log(`${r.numPassedTests || 0} ${(r.numFailedTests || 0) + broken + idle}`);
  ' "$1"
}

vitest_suite() { # suite report node-command... -- vitest-arguments...
  local suite=$1 report=$2
  shift 2
  local cmd=()
  while [ "$1" != "--" ]; do cmd+=("$1"); shift; done
  shift
  rm -f "$report"
  "${cmd[@]}" run "$@" --reporter=default --reporter=json --outputFile.json="$report" \
    >"$OUT/$suite.log" 2>&1
  local rc=$?
  read -r p f < <(vitest_counts "$report")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi # crashed without a report of failures
  if [ "$f" -ne 0 ]; then grep -E '(FAIL|×|✗|↓| skipped| Error:)' "$OUT/$suite.log" | head -n 60 | sed 's/^/   | /'; fi
  count "$suite" "$p" "$f"
}

# Product suites: everything but the committed-artifact check (run once, below) and the harness.
PRODUCT=(--exclude test/core/artifacts.test.ts --exclude 'test/harness/**')

# Script suites: counted from their own last "N passed, N failed…" line, else by exit status. A
# missing script is a failure, never a silent skip.
script_suite() { # script-name
  local name=$1
  if ! node -e 'process.exit(require("./package.json").scripts?.[process.argv[1]] ? 0 : 1)' "$name"; then
    echo "   | package.json has no \"$name\" script"
    count "npm run $name" 0 1
    return
  fi
  timeout "$SCRIPT_TIMEOUT" npm run --silent "$name" >"$OUT/$name.log" 2>&1
  local rc=$?
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/$name.log" | tail -n 1)
  if [ -n "$line" ]; then
    local p f
    p=${line%% passed*}
    f=${line#*, }
    f=${f%% failed*}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    count "npm run $name" "$p" "$f"
  elif [ "$rc" -eq 0 ]; then count "npm run $name" 1 0
  else
    tail -n 30 "$OUT/$name.log" | sed 's/^/   | /'
    count "npm run $name" 0 1
  fi
}

# 1. Toolchain (Debian rustc/cargo for wasm32, lld, binaryen).
if [ -f scripts/setup.sh ]; then unit setup "$OUT/setup.log" bash scripts/setup.sh
else echo 'scripts/setup.sh is missing'; count setup 0 1; fi

# Fastly's Viceroy, pinned, from the Rust crate registry (about 11 minutes the first time, then
# instant): the local Compute runtime the edge suites, the diff and the conformance run use.
unit viceroy "$OUT/viceroy.log" node scripts/viceroy.mjs

# 2. Build the package (dist/), needed by the type and bench consumers.
unit build "$OUT/build.log" npm run --silent build

# The committed dist/ (what a fresh clone packs without installing anything) is that fresh build.
committed_dist() {
  local changed
  changed=$(git status --porcelain --untracked-files=all -- dist)
  if [ -n "$changed" ]; then
    echo "dist/ differs from a fresh build of the sources: run npm run build and commit dist/"
    echo "$changed" | head -n 20
    return 1
  fi
}
unit 'committed dist' "$OUT/committed-dist.log" committed_dist

# 3. Rust unit tests with rustup's cargo on the host.
CARGO_BIN=${CARGO:-$HOME/.cargo/bin/cargo}
[ -x "$CARGO_BIN" ] || CARGO_BIN=cargo
(cd native && "$CARGO_BIN" test --no-fail-fast --color never) >"$OUT/cargo-test.log" 2>&1
rc=$?
# Summed over every test binary and the doc-tests; ignored tests count as failures.
read -r p f < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/ || $(i+1) ~ /^ignored/) f += $i } } END { print p + 0, f + 0 }' "$OUT/cargo-test.log")
if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; echo '   | cargo test printed no summary'; fi
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; tail -n 30 "$OUT/cargo-test.log" | sed 's/^/   | /'; fi
if [ "$f" -ne 0 ]; then grep -E '^test .* FAILED$|panicked at' "$OUT/cargo-test.log" | head -n 40 | sed 's/^/   | /'; fi
count 'cargo test' "$p" "$f"

# 4. Committed artifacts equal a fresh deterministic build (test/core/artifacts.test.ts runs
#    `node scripts/build-core.mjs --check`); run once here, excluded from the runs below.
rm -f "$OUT/artifacts.json"
npx vitest run test/core/artifacts.test.ts --reporter=default --reporter=json --outputFile.json="$OUT/artifacts.json" >"$OUT/artifacts.log" 2>&1
rc=$?
read -r p f < <(vitest_counts "$OUT/artifacts.json")
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
if [ "$f" -ne 0 ]; then tail -n 30 "$OUT/artifacts.log" | sed 's/^/   | /'; fi
count 'artifact check' "$p" "$f"

# 5. vitest on this machine's Node.
vitest_suite "vitest-node$(node -p 'process.versions.node.split(".")[0]')" "$OUT/vitest-node.json" npx vitest -- "${PRODUCT[@]}"

# 6. The same suites on the other Node lines package.json declares (^22.14.0, ^24.0.0), from the
#    npm `node` package, pinned (cached after the first run).
for spec in "$NODE22_SPEC" "$NODE24_SPEC"; do
  line=node${spec#node@}
  line=${line%%.*}
  if npx -y -p "$spec" node --version >"$OUT/$line-version.log" 2>&1; then
    vitest_suite "vitest-$line" "$OUT/vitest-$line.json" npx -y -p "$spec" node node_modules/vitest/vitest.mjs -- "${PRODUCT[@]}"
  else
    tail -n 5 "$OUT/$line-version.log" | sed 's/^/   | /'
    count "vitest-$line" 0 1
  fi
done

# 7. The harness's own tests (table data, qualification tooling), apart from the product's.
vitest_suite harness "$OUT/harness.json" npx vitest -- test/harness

# 8. Across targets and against real clients.
script_suite diff
script_suite qualify
script_suite conformance
# The package as a user installs it: packed, installed outside the checkout, used from there.
script_suite acceptance
# 9. A bounded fuzzing pass over the committed corpora (40 s per target, 4 targets).
script_suite fuzz:smoke

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
