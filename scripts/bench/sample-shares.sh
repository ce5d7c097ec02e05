#!/usr/bin/env bash
# Samples one adal2msal run with perf (8 kHz, call stacks) and prints, for each NAME=PATTERN, the share of the
# samples whose stack holds a function whose mangled name contains PATTERN. A change to one stage shows in its
# share long before it shows through the machine's noise in wall time (docs/benchmarks.md, "Counting calls");
# run each build several times, interleaved. Needs perf (root, or perf_event_paranoid <= 1).
#
#   scripts/bench/sample-shares.sh BINARY DUMP NAME=PATTERN...
#   scripts/bench/sample-shares.sh .build/release/adal2msal DUMP \
#     lookups=FlatDictionaryArrayC7objects fingerprints=SecretFingerprintO12digestPrefix
#
# It runs the issue-23 dry run: migrate --adal DUMP --dry-run --now 2026-01-01T00:00:00Z --report (a temporary
# file) -q. Mangled names: `swift demangle` reads them; `perf script | grep` finds the one to match.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
binary=$1
dump=$2
shift 2
command -v perf > /dev/null || { echo "sample-shares: perf is not installed (Debian: linux-perf)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "sample-shares: python3 is not installed" >&2; exit 1; }
for pair in "$@"; do
  [[ $pair == *=?* ]] || { echo "sample-shares: '$pair' is not NAME=PATTERN" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -q -F 8000 -g -o "$work/perf.data" "$binary" migrate --adal "$dump" --dry-run \
  --now 2026-01-01T00:00:00Z --report "$work/report.txt" -q > /dev/null 2>&1
perf script -i "$work/perf.data" 2> /dev/null | python3 -c '
import sys
patterns = [arg.split("=", 1) for arg in sys.argv[1:]]
counts = [0] * len(patterns)
total = 0
stack = []

def count():
    global total
    if not stack:
        return
    total += 1
    frames = " ".join(stack)
    for position, (_, pattern) in enumerate(patterns):
        if pattern in frames:
            counts[position] += 1

# perf script: a header line per sample, then one indented line per frame, then a blank line.
for line in sys.stdin:
    if not line.strip():
        count()
        stack = []
    elif line[0] in " \t":
        stack.append(line.strip())
count()
print(f"samples {total}")
for (name, _), hits in zip(patterns, counts):
    print(f"{name} {hits} {100 * hits / max(total, 1):.2f}%")
' "$@"
