#!/usr/bin/env bash
# Runs the issue-23 migration of one dump with each BINARY in turn, ROUNDS times, sampling the process's resident
# memory every 3 ms from /proc/PID/status, and prints for each run the two peaks a single large dump's run comes
# near: while it reads (the input in memory with the first items decoded) and at its end (the plan, the store's
# writer and the report), with the lowest point between them, where the input has been given back. Each figure is
# RSS in MiB, then its anonymous part (the file pages are the binary's and the libraries'). The lowest point is
# the deepest dip, the sample furthest below the lower of the highest samples before and after it; a run with no
# dip shows its peak three times. /usr/bin/time's peak is the larger of the two peaks, less what falls between
# samples.
#
#   scripts/bench/rss-phases.sh DUMP ROUNDS BINARY [BINARY...]
#   scripts/bench/rss-phases.sh /tmp/a2m-bench/gen-2500/synthetic-2500-users.bplist 6 \
#     .build/release/adal2msal /tmp/adal2msal-candidate
#
# Each run: migrate --adal DUMP --out (a new store) --report (a file) --now 2026-01-01T00:00:00Z -q. Linux only.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
dump=$1
rounds=$2
shift 2
[ -r /proc/self/status ] || { echo "rss-phases: needs Linux's /proc" >&2; exit 1; }
command -v python3 > /dev/null || { echo "rss-phases: python3 is not installed" >&2; exit 1; }
[ -f "$dump" ] || { echo "rss-phases: no dump at $dump" >&2; exit 1; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "rss-phases: ROUNDS must be a positive number, not '$rounds'" >&2; exit 2; }
for binary in "$@"; do
  [ -x "$binary" ] || { echo "rss-phases: $binary is not an executable" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$dump" "$rounds" "$work" "$@" << 'PYTHON'
import os, re, subprocess, sys, time

dump, rounds, work, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
fields = re.compile(r"VmRSS:\s+(\d+) kB.*?RssAnon:\s+(\d+) kB", re.S)

def sampled(binary, store, report):
    """The run's samples, (RSS, anonymous) in KiB, every 3 ms, and its wall time."""
    command = [binary, "migrate", "--adal", dump, "--out", store, "--report", report,
               "--now", "2026-01-01T00:00:00Z", "-q"]
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    samples = []
    while process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/status") as status:
                match = fields.search(status.read())
            if match:
                samples.append((int(match.group(1)), int(match.group(2))))
        except OSError:
            pass  # the process ended between the poll and the read
        time.sleep(0.003)
    wall = time.monotonic() - start
    error = process.stderr.read().decode(errors="replace").strip()
    if process.returncode != 0:
        sys.exit(f"rss-phases: {binary} exited with {process.returncode}: {error}")
    if not samples:
        sys.exit(f"rss-phases: {binary} ended before its memory could be sampled")
    return samples, wall

def phases(samples):
    """The deepest dip: the sample furthest below the lower of the highest samples before and after it, with those
    two. A run with no dip gives its peak three times."""
    before, after = [samples[0]], [samples[-1]]
    for sample in samples[1:]:
        before.append(max(before[-1], sample))
    for sample in reversed(samples[:-1]):
        after.append(max(after[-1], sample))
    after.reverse()
    depth = lambda index: min(before[index][0], after[index][0]) - samples[index][0]
    lowest = max(range(len(samples)), key=depth)
    if depth(lowest) == 0:
        peak = max(samples)
        return peak, peak, peak
    return before[lowest], samples[lowest], after[lowest]

def mib(pair):
    return f"{pair[0] / 1024:6.1f} ({pair[1] / 1024:5.1f})"

print(f"{'binary':<28} {'run':>3}  {'read MiB (anon)':>16}  {'lowest':>16}  {'end':>16}  {'wall s':>6}")
for round in range(1, rounds + 1):
    for position, binary in enumerate(binaries):
        directory = os.path.join(work, f"{round}-{position}")
        os.mkdir(directory)
        samples, wall = sampled(binary, os.path.join(directory, "store.sqlite"), os.path.join(directory, "report.txt"))
        read, lowest, end = phases(samples)
        name = os.path.basename(binary) if len(binary) > 28 else binary
        print(f"{name[-28:]:<28} {round:>3}  {mib(read):>16}  {mib(lowest):>16}  {mib(end):>16}  {wall:6.2f}")
        subprocess.run(["rm", "-rf", directory], check=True)
PYTHON
