#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (Swift's -sanitize=fuzzer,address) and runs each for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      SECONDS per target (default 60); all targets unless named
#
# Environment: FUZZ_JOBS (targets run at once, default 2), FUZZ_SCRATCH (default .build-fuzz).
# Corpus: .build-fuzz/corpus/<target> (kept between runs, ignored by git); seeds are read in place from
# Fixtures/ directories and Fixtures/fuzz-regressions/<target>. Prints per target: executions, coverage
# (cov:, ft: of the final stats line), time and crashes; exits 1 if any target found a crash, timeout or
# out-of-memory input (its path is printed), 2 if the build failed. See docs/fuzzing.md.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

seconds="${1:-60}"
shift || true
all_targets=(fuzz-binary-plist fuzz-xml-plist fuzz-keyed-archive fuzz-unified-json fuzz-adal-dump fuzz-pipeline)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
jobs_at_once="${FUZZ_JOBS:-2}"
scratch="${FUZZ_SCRATCH:-.build-fuzz}"

# Seed directories per target (read-only: libFuzzer writes new inputs only to the first corpus directory).
seeds() {
  case "$1" in
    fuzz-binary-plist) echo Fixtures/adal Fixtures/adal-objc Fixtures/bad/binary-plist Fixtures/bad/keyed-archive ;;
    fuzz-xml-plist) echo Fixtures/adal Fixtures/bad/xml-plist ;;
    fuzz-keyed-archive) echo Fixtures/adal Fixtures/adal-objc Fixtures/bad/keyed-archive ;;
    fuzz-unified-json) echo Fixtures/msal-json Fixtures/bad/msal-json ;;
    fuzz-adal-dump) echo Fixtures/adal Fixtures/adal-objc Fixtures/bad/adal ;;
    fuzz-pipeline) echo Fixtures/adal Fixtures/bad/adal ;;
  esac
  echo "Fixtures/fuzz-regressions/$1"
}

build_flags=(-c release --package-path Fuzz --scratch-path "$scratch"
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
echo "== building ${#targets[@]} fuzz target(s) (release, -sanitize=fuzzer,address)"
build_started=$SECONDS
mkdir -p "$scratch"
# `swift build` takes one --product at a time; build them in turn (the dependencies are built once).
for target in "${targets[@]}"; do
  if ! swift build "${build_flags[@]}" --product "$target" >"$scratch/build.log" 2>&1; then
    tail -40 "$scratch/build.log"
    echo "fuzz.sh: building $target failed" >&2
    exit 2
  fi
done
bin="$(swift build "${build_flags[@]}" --show-bin-path)"
echo "   built in $((SECONDS - build_started)) s"

run_target() {
  local target="$1" corpus="$scratch/corpus/$1" artifacts="$scratch/artifacts/$1/" log="$scratch/logs/$1.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  local dirs=()
  for dir in $(seeds "$target"); do [ -d "$dir" ] && dirs+=("$dir"); done
  "$bin/$target" "$corpus" "${dirs[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" >"$log" 2>&1
  echo $? >"$log.status"
}

rm -rf "$scratch/logs"
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs_at_once" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=0
printf '%-20s %12s %8s %8s %7s  %s\n' target executions cov ft seconds crashes
for target in "${targets[@]}"; do
  log="$scratch/logs/$target.log"
  status="$(cat "$log.status" 2>/dev/null || echo 99)"
  executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  elapsed="$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 | grep -Eo '[0-9]+ second' | grep -Eo '[0-9]+')"
  stats="$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)"
  cov="$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$stats")"
  ft="$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$stats")"
  crash="$(grep -Eo "Test unit written to [^ ]+" "$log" | tail -1 | sed 's/Test unit written to //')"
  if [ "$status" != 0 ] || [ -n "$crash" ]; then
    failed=1
    printf '%-20s %12s %8s %8s %7s  %s\n' "$target" "${executions:-?}" "${cov:-?}" "${ft:-?}" "${elapsed:-?}" \
      "CRASH (exit $status): ${crash:-see $log}"
    grep -E 'ERROR: (libFuzzer|AddressSanitizer)|Fatal error|SUMMARY' "$log" | head -3 | sed 's/^/    /'
  else
    printf '%-20s %12s %8s %8s %7s  %s\n' "$target" "${executions:-?}" "${cov:-?}" "${ft:-?}" "${elapsed:-?}" 0
  fi
done
[ "$failed" = 0 ] || echo "fuzz.sh: crashing inputs above; logs in $scratch/logs (reproduce: $bin/<target> <input>)" >&2
exit "$failed"
