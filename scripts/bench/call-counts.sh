#!/usr/bin/env bash
# Counts the Swift runtime's retains and releases and glibc's mallocs of one adal2msal run with perf's
# user-space probes. Unlike wall and CPU time, the counts do not drift with the machine (they vary by under 0.1%
# from run to run; now and then one is about 3% higher, with which threads shared which strings: take the lowest
# of three), so a change that removes copies shows at once (docs/benchmarks.md, "Counting calls"). Needs perf and
# root (to place the probes).
#
#   scripts/bench/call-counts.sh BINARY DUMP [migrate options, in place of the dry run's below]
#   scripts/bench/call-counts.sh .build/release/adal2msal /tmp/a2m-bench/compare-10000-users-seed1/synthetic-10000-users.bplist
#
# Without options it runs the issue-23 dry run: migrate --adal DUMP --dry-run --now 2026-01-01T00:00:00Z
# --report (a temporary file).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
binary=$1
dump=$2
shift 2
command -v perf > /dev/null || { echo "call-counts: perf is not installed (Debian: linux-perf)" >&2; exit 1; }
runtime=$(ldd "$binary" | awk '/libswiftCore.so/ {print $3}')
libc=$(ldd "$binary" | awk '/libc.so.6/ {print $3}')
[ -n "$runtime" ] && [ -n "$libc" ] || { echo "call-counts: $binary links no libswiftCore.so or libc.so.6" >&2; exit 1; }
# A probe is placed once per library file and kept until reboot (`perf probe -d 'probe_*'` removes them).
perf probe --list 2> /dev/null | grep -q 'probe_libswiftCore:swift_retain ' || perf probe -q -x "$runtime" swift_retain
perf probe --list 2> /dev/null | grep -q 'probe_libswiftCore:swift_release ' || perf probe -q -x "$runtime" swift_release
perf probe --list 2> /dev/null | grep -q 'probe_libc:malloc ' || perf probe -q -x "$libc" malloc
report=$(mktemp)
trap 'rm -f "$report"' EXIT
if [ $# -eq 0 ]; then
  set -- --dry-run --now 2026-01-01T00:00:00Z --report "$report"
fi
perf stat -x, -e probe_libswiftCore:swift_retain,probe_libswiftCore:swift_release,probe_libc:malloc \
  "$binary" migrate --adal "$dump" -q "$@" 2>&1 > /dev/null \
  | awk -F, '/probe_/ { split($3, name, ":"); printf "%s %s\n", name[2], $1 }'
