#!/usr/bin/env bash
# Samples one adal2msal run with perf (8 kHz, call stacks) and prints, for each NAME=PATTERN, the share of the
# samples whose stack holds a function whose mangled name contains PATTERN, when the first such sample came and
# how long the cores stood idle before it (cores times that time, less the samples' time). A change to one stage
# shows in its share long before it shows through the machine's noise in wall time (docs/benchmarks.md, "Counting
# calls"); run each build several times, interleaved. Needs perf (root, or perf_event_paranoid <= 1).
# PATTERN may list alternatives, A|B; with a leading @ it is matched against the function the sample was taken in
# only, not its callers, which shares a run's time out by kind of cost (docs/benchmarks.md, "What the redesign
# could take out"). With --first, each sample counts under the first NAME it matches, in the order given, and the
# samples none matches under `none`: stages whose functions call one another then share the run out
# (docs/benchmarks.md, "Where the time goes now").
#
#   scripts/bench/sample-shares.sh [--first] BINARY DUMP NAME=PATTERN...
#   scripts/bench/sample-shares.sh .build/release/adal2msal DUMP \
#     lookups=FlatDictionaryArrayC7objects fingerprints=SecretFingerprintO12digestPrefix \
#     'counts=@swift_retain|swift_release' 'zeroing=@clear_page'
#
# It runs the issue-23 dry run: migrate --adal DUMP --dry-run --now 2026-01-01T00:00:00Z --report (a temporary
# file) -q. Mangled names: `swift demangle` reads them; `perf script | grep` finds the one to match.
set -euo pipefail
first_match=0
if [ "${1:-}" = --first ]; then
  first_match=1
  shift
fi
if [ $# -lt 3 ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
binary=$1
dump=$2
shift 2
command -v perf > /dev/null || { echo "sample-shares: perf is not installed (Debian: linux-perf)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "sample-shares: python3 is not installed" >&2; exit 1; }
for pair in "$@"; do
  [[ $pair == *=?* ]] || { echo "sample-shares: '$pair' is not NAME=PATTERN" >&2; exit 2; }
  # An empty alternative would match every sample.
  pattern=${pair#*=}
  pattern=${pattern#@}
  [[ -n $pattern && $pattern != *'||'* && $pattern != '|'* && $pattern != *'|' ]] ||
    { echo "sample-shares: '$pair' has an empty pattern or alternative" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -q -F 8000 -g -o "$work/perf.data" "$binary" migrate --adal "$dump" --dry-run \
  --now 2026-01-01T00:00:00Z --report "$work/report.txt" -q > /dev/null 2>&1
perf script -i "$work/perf.data" 2> /dev/null | FIRST_MATCH=$first_match python3 -c '
import os, re, sys
rate = 8000
cores = os.cpu_count()
# (name, alternatives, whether only the sampled function is matched)
patterns = []
for arg in sys.argv[1:]:
    name, pattern = arg.split("=", 1)
    sampled_only = pattern.startswith("@")
    patterns.append((name, (pattern[1:] if sampled_only else pattern).split("|"), sampled_only))
first_match = os.environ["FIRST_MATCH"] == "1"
counts = [0] * len(patterns)
first = [None] * len(patterns)
unmatched = 0
times = []
stack = []
time = None

def count():
    global unmatched
    if not stack:
        return
    times.append(time)
    frames = " ".join(stack)
    for position, (_, alternatives, sampled_only) in enumerate(patterns):
        where = stack[0] if sampled_only else frames
        if any(alternative in where for alternative in alternatives):
            counts[position] += 1
            if first[position] is None:
                first[position] = time
            if first_match:
                return
    unmatched += 1

# perf script: a header line per sample (with its time, "12345.678901:"), then one indented line per frame, then
# a blank line.
for line in sys.stdin:
    if not line.strip():
        count()
        stack = []
    elif line[0] in " \t":
        stack.append(line.strip())
    else:
        found = re.search(r" (\d+\.\d+):", line)
        time = float(found.group(1)) if found else None
count()
total = len(times)
start = min(times) if times else 0.0

def idle_until(end):
    # How long the cores stood idle from the first sample to `end`, in milliseconds.
    before = sum(1 for sample in times if sample < end)
    return max(0.0, cores * (end - start) - before / rate) * 1000

end = max(times) if times else 0.0
print(f"samples {total}, {(end - start) * 1000:.0f} ms, cores idle {idle_until(end):.0f} ms of {cores}")
for (name, _, _), hits, at in zip(patterns, counts, first):
    where = f", first at {(at - start) * 1000:.0f} ms, cores idle {idle_until(at):.0f} ms before" if at else ""
    print(f"{name} {hits} {100 * hits / max(total, 1):.2f}%{where}")
if first_match:
    print(f"none {unmatched} {100 * unmatched / max(total, 1):.2f}%")
' "$@"
