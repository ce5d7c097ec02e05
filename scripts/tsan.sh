#!/usr/bin/env bash
# The test suite under ThreadSanitizer (docs/building.md, "ThreadSanitizer"): a build of its own in .build/tsan,
# whose tests start its own `adal2msal`, and every test but those that measure what the sanitizer itself changes.
# Fails when a test fails or any process (the test runner or a binary it started) reported a race.
# Arguments go to `swift test` (`--filter CacheStoreTests`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh --test-oracles
export ADAL2MSAL_PYTHON="$PWD/.venv-oracle/bin/python"
scratch=.build/tsan
swift build --build-tests --sanitize=thread --scratch-path "$scratch"

reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
# Each process writes its reports to a file of its own (report.PID) rather than onto the standard error that the
# end-to-end tests read. A binary a test starts with an environment of its own does not see this: it reports on
# standard error and exits with 66, which fails that test.
export TSAN_OPTIONS="log_path=$reports/report"
# What the sanitizer changes, not what the code does: glibc's allocator, which ThreadSanitizer replaces
# (AllocatorTuningTests); a file-size limit (`ulimit -f`), under which its runtime faults on a bus error, and a
# limit on the address space, which it refuses to run under (the fault tests of a full disk, a 1 GiB input in
# little memory, a new store under a file-size limit); and how soon a signal's handler runs, which decides whether a run interrupted while its commit is
# written commits first (README, "Interrupted runs leave nothing behind").
skipped='AllocatorTuningTests/|FaultTests/(fullDisk|fileSizeLimitOnNewStore|reportFaults|exportFaults)|SpecialInputTests/zeroFilled|InterruptTests/migrateExisting'
status=0
swift test --skip-build --sanitize=thread --scratch-path "$scratch" --skip "$skipped" "$@" || status=$?

if compgen -G "$reports/report.*" >/dev/null; then
  echo "tsan: ThreadSanitizer reported in $(ls "$reports" | wc -l) process(es):" >&2
  grep -h -E '^(SUMMARY|==[0-9]+==ERROR)' "$reports"/report.* | sort | uniq -c >&2
  cat "$reports"/report.* >&2
  exit 1
fi
if ((status != 0)); then
  echo "tsan: the tests failed under ThreadSanitizer (status $status)" >&2
  exit "$status"
fi
echo "tsan: no report, every test passed"
