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
# The runtime is libswiftCore.so, or the binary itself when it was built with --static-swift-stdlib.
runtime=$(ldd "$binary" | awk '/libswiftCore.so/ {print $3}')
runtime=${runtime:-$binary}
libc=$(ldd "$binary" | awk '/libc.so.6/ {print $3}')
[ -n "$libc" ] || { echo "call-counts: $binary links no libc.so.6" >&2; exit 1; }
# Placed again for each run, in this binary's runtime (probes outlive a run until reboot; `perf probe -d 'a2m:*'`
# removes them). Linked into the binary, the runtime's functions are local symbols, which perf finds by name only
# with debug information: those are placed by their offset in the file, which perf takes for a raw address. The
# release binary's code segment is loaded a page above its offset (scripts/release/text-layout.ld), so `nm`'s
# virtual address is turned into the offset through the load segment that holds it (`readelf -l`).
file_offset() {
  local file=$1 address=$((16#$2)) type offset start physical size rest
  while read -r type offset start physical size rest; do
    [ "$type" = LOAD ] || continue
    if ((address >= start && address < start + size)); then
      printf '%x\n' $((address - start + offset))
      return
    fi
  done < <(readelf -lW "$file")
}
place() {
  local file=$1 function=$2 address offset
  perf probe -q -x "$file" -a "a2m:$function=$function" 2> /dev/null && return
  address=$(nm "$file" | awk -v f="$function" '$3 == f && !found {print $1; found = 1}')
  [ -n "$address" ] || { echo "call-counts: no $function in $file" >&2; exit 1; }
  offset=$(file_offset "$file" "$address")
  [ -n "$offset" ] || { echo "call-counts: $function's address $address is in no load segment of $file" >&2; exit 1; }
  perf probe -q -x "$file" -a "a2m:$function=0x$offset"
}
perf probe -q -d 'a2m:*' 2> /dev/null || true
place "$runtime" swift_retain
place "$runtime" swift_release
place "$libc" malloc
report=$(mktemp)
trap 'rm -f "$report"' EXIT
if [ $# -eq 0 ]; then
  set -- --dry-run --now 2026-01-01T00:00:00Z --report "$report"
fi
# A probe placed off its function counts nothing (or another function's calls): a run of Swift code retains.
counts=$(perf stat -x, -e a2m:swift_retain,a2m:swift_release,a2m:malloc \
  "$binary" migrate --adal "$dump" -q "$@" 2>&1 > /dev/null \
  | awk -F, '/a2m:/ { split($3, name, ":"); printf "%s %s\n", name[2], $1 }')
echo "$counts"
if ! echo "$counts" | awk '$2 + 0 == 0 { zero = 1 } END { exit zero }'; then
  echo "call-counts: a probe counted no calls: it is not on its function (perf probe -l shows where it is)" >&2
  exit 1
fi
