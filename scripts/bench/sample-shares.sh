#!/usr/bin/env bash
# Samples one adal2msal run with perf (8 kHz, call stacks) and prints, for each NAME=PATTERN, the share of the
# samples whose stack holds a function whose mangled name contains PATTERN, when the first such sample came and
# how long the cores stood idle before it (cores times that time, less the samples' time). A change to one stage
# shows in its share long before it shows through the machine's noise in wall time (docs/benchmarks.md, "Counting
# calls"); run each build several times, interleaved. Needs perf (root, or perf_event_paranoid <= 1).
# PATTERN may list alternatives, A|B; with a leading @ it is matched against the function the sample was taken in
# only (and its library, as perf prints it: @libsqlite3, @kernel.kallsyms), not its callers, which shares a run's
# time out by kind of cost (docs/benchmarks.md, "What the redesign could take out"). With --first, each sample
# counts under the first NAME it matches, in the order given, and the samples none matches under `none`: stages
# whose functions call one another then share the run out (docs/benchmarks.md, "Where the time goes now").
# With --stage PATTERN, BINARY is adal2msal-bench: it samples the stages' child (`pipeline-stages --input DUMP`,
# each stage run alone) and counts only the samples from the first to the last whose stack holds PATTERN. With
# --by-thread, the shares are given for each thread that holds 1% of the samples or more. With --within PATTERN,
# only the samples whose stack holds PATTERN count, and with --without PATTERN only those whose stack does not (one
# stage's own samples, wherever they fall in time, less those of a stage it calls), so the @ patterns share that
# stage out by kind of cost; the cores' idle time is not given then.
#
#   scripts/bench/sample-shares.sh [--first] [--by-thread] [--stage PATTERN] [--within PATTERN] \
#     [--without PATTERN] BINARY DUMP NAME=PATTERN...
#   scripts/bench/sample-shares.sh .build/release/adal2msal DUMP \
#     lookups=FlatDictionaryArrayC7objects fingerprints=SecretFingerprintO12digestPrefix \
#     'counts=@swift_retain|swift_release' 'zeroing=@clear_page'
#
# Without --stage it runs the issue-23 dry run: migrate --adal DUMP --dry-run --now 2026-01-01T00:00:00Z --report
# (a temporary file) -q. Mangled names: `swift demangle` reads them; `perf script | grep` finds the one to match.
set -euo pipefail
# Whether $1 is a usable pattern: an empty one, or an empty alternative, would match every sample.
usable_pattern() {
  [[ -n $1 && $1 != *'||'* && $1 != '|'* && $1 != *'|' ]]
}
# The pattern an option takes (--stage, --within, --without): the option and what follows it, checked.
pattern_argument() {
  [ $# -ge 2 ] && usable_pattern "$2" ||
    { echo "sample-shares: $1 needs a pattern without an empty alternative" >&2; exit 2; }
}
first_match=0
by_thread=0
stage=
within=
without=
while [ $# -gt 0 ]; do
  case $1 in
    --first) first_match=1; shift ;;
    --by-thread) by_thread=1; shift ;;
    --stage) pattern_argument "$@"; stage=$2; shift 2 ;;
    --within) pattern_argument "$@"; within=$2; shift 2 ;;
    --without) pattern_argument "$@"; without=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ]; then
  sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
binary=$1
dump=$2
shift 2
command -v perf > /dev/null || { echo "sample-shares: perf is not installed (Debian: linux-perf)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "sample-shares: python3 is not installed" >&2; exit 1; }
for pair in "$@"; do
  [[ $pair == *=?* ]] || { echo "sample-shares: '$pair' is not NAME=PATTERN" >&2; exit 2; }
  pattern=${pair#*=}
  usable_pattern "${pattern#@}" ||
    { echo "sample-shares: '$pair' has an empty pattern or alternative" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$stage" ]; then
  run=("$binary" pipeline-stages --input "$dump")
else
  run=("$binary" migrate --adal "$dump" --dry-run --now 2026-01-01T00:00:00Z --report "$work/report.txt" -q)
fi
perf record -q -F 8000 -g -o "$work/perf.data" "${run[@]}" > /dev/null 2>&1
perf script -i "$work/perf.data" 2> /dev/null |
  FIRST_MATCH=$first_match BY_THREAD=$by_thread STAGE=$stage WITHIN=$within WITHOUT=$without python3 -c '
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
by_thread = os.environ["BY_THREAD"] == "1"
stage = os.environ["STAGE"].split("|") if os.environ["STAGE"] else None
within = os.environ["WITHIN"].split("|") if os.environ["WITHIN"] else None
without = os.environ["WITHOUT"].split("|") if os.environ["WITHOUT"] else None

# perf script: a header line per sample ("command TID 12345.678901: ..."), then one indented line per frame, then
# a blank line. Each sample is kept as (thread, time, frames).
samples = []
header = None
stack = []
for line in sys.stdin:
    if not line.strip():
        if header and stack:
            samples.append((header[0], header[1], stack))
        header, stack = None, []
    elif line[0] in " \t":
        stack.append(line.strip())
    else:
        found = re.search(r" (\d+)(?:/\d+)? +(\d+\.\d+):", line)
        header = (int(found.group(1)), float(found.group(2))) if found else None
if header and stack:
    samples.append((header[0], header[1], stack))

def holds(frames, parts):
    joined = " ".join(frames)
    return any(part in joined for part in parts)

if stage:
    held = [time for _, time, frames in samples if holds(frames, stage)]
    if not held:
        sys.exit("sample-shares: no sample holds the --stage pattern")
    samples = [sample for sample in samples if min(held) <= sample[1] <= max(held)]
if within or without:
    samples = [
        sample for sample in samples
        if (not within or holds(sample[2], within)) and not (without and holds(sample[2], without))
    ]
    if not samples:
        sys.exit("sample-shares: no sample is left by --within and --without")

def share(selected, label, whole):
    counts = [0] * len(patterns)
    first = [None] * len(patterns)
    unmatched = 0
    times = [time for _, time, _ in selected]
    for _, time, frames in selected:
        joined = " ".join(frames)
        for position, (_, alternatives, sampled_only) in enumerate(patterns):
            where = frames[0] if sampled_only else joined
            if any(alternative in where for alternative in alternatives):
                counts[position] += 1
                if first[position] is None:
                    first[position] = time
                if first_match:
                    break
        else:
            unmatched += 1
    total = len(selected)
    start = min(times) if times else 0.0
    end = max(times) if times else 0.0

    def idle_until(moment):
        # How long the cores stood idle from the first sample to `moment`, in milliseconds.
        before = sum(1 for sample in times if sample < moment)
        return max(0.0, cores * (moment - start) - before / rate) * 1000

    idle = f", cores idle {idle_until(end):.0f} ms of {cores}" if whole else ""
    print(f"{label}samples {total}, {(end - start) * 1000:.0f} ms{idle}")
    for (name, _, _), hits, at in zip(patterns, counts, first):
        where = f", first at {(at - start) * 1000:.0f} ms" if at else ""
        if at and whole:
            where += f", cores idle {idle_until(at):.0f} ms before"
        print(f"{label}{name} {hits} {100 * hits / max(total, 1):.2f}%{where}")
    if first_match:
        print(f"{label}none {unmatched} {100 * unmatched / max(total, 1):.2f}%")

if by_thread:
    threads = {}
    for sample in samples:
        threads.setdefault(sample[0], []).append(sample)
    for thread, selected in sorted(threads.items(), key=lambda item: -len(item[1])):
        if len(selected) * 100 >= len(samples):
            share(selected, f"thread {thread}: ", whole=False)
else:
    # The idle time is of the whole run: the samples of one stage leave out what ran beside it.
    share(samples, "", whole=not (within or without))
' "$@"
