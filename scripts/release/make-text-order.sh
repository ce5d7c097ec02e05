#!/usr/bin/env bash
# Regenerates scripts/release/text-order.txt: the functions the release adal2msal runs, which scripts/release/build.sh
# has the linker lay out together, so that the kernel maps fewer pages of the binary's code (docs/building.md,
# "The release binary on Linux"). Run it as root after code changes that rename or add much of what a migration
# runs (a stale list costs memory, never correctness):
#
#     sudo bash scripts/release/make-text-order.sh
#
# It builds the release binary (scripts/release/build.sh), copies it, and runs the copy on a generated 10k-item dump
# (the issue-23 `migrate`, its dry run, the run again into its store, `inspect`, `export`) and on the demo's dump,
# each run with the copy out of the page cache, the disk's read-ahead off (root: restored at exit), and
# `pagecov.c` preloaded, which lists the code pages each run touched. The list is every function on those pages (the
# ones that ran, and the ones that share a page with them), in the order the binary holds them.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
[ "$(uname -s)" = Linux ] || { echo "make-text-order.sh: Linux only" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "make-text-order.sh: run as root (it turns the disk's read-ahead off while it measures)" >&2; exit 1; }

bash scripts/release/build.sh --product adal2msal
bash scripts/release/build.sh --product adal2msal-bench
bin="$(bash scripts/release/build.sh --show-bin-path)"
work="$(mktemp -d)"
cc -O2 -shared -fPIC -o "$work/pagecov.so" scripts/release/pagecov.c
"$bin/adal2msal-bench" generate --users 2500 --out "$work/dump" --format binary-plist --seed 1 > /dev/null
dump="$(ls "$work"/dump/*)"

# The read-ahead of the block device holding $work (of its disk, for a partition).
device="$(basename "$(df --output=source "$work" | tail -n 1)")"
queue="/sys/class/block/$device/queue"
[ -d "$queue" ] || queue="/sys/class/block/$device/../queue"
[ -w "$queue/read_ahead_kb" ] || { echo "make-text-order.sh: no read-ahead setting for $device" >&2; exit 1; }
saved="$(cat "$queue/read_ahead_kb")"
trap 'echo "$saved" > "$queue/read_ahead_kb"; rm -rf "$work"' EXIT
echo 0 > "$queue/read_ahead_kb"

pages="$work/pages.txt"
run() {
  python3 -c 'import os,sys; f=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(f, 0, 0, os.POSIX_FADV_DONTNEED)' \
    "$work/adal2msal"
  local status=0
  PAGECOV_OUT="$pages" LD_PRELOAD="$work/pagecov.so" "$work/adal2msal" "$@" > /dev/null 2>&1 || status=$?
  # 2: written, with items that could not be read (the demo's dump holds one on purpose).
  [ "$status" -eq 0 ] || [ "$status" -eq 2 ] || { echo "make-text-order.sh: adal2msal $* exited $status" >&2; exit 1; }
}
cp "$bin/adal2msal" "$work/adal2msal"
sync  # a copy's pages leave the cache only once written
now=2026-01-01T00:00:00Z
run migrate --adal "$dump" --out "$work/store.sqlite" --now "$now" --report "$work/report.txt"
run migrate --adal "$dump" --out "$work/dry.sqlite" --dry-run --now "$now" --report "$work/dry.txt"
run migrate --adal "$dump" --out "$work/store.sqlite" --now "$now" --report "$work/again.txt"
run inspect "$dump"
run export "$work/store.sqlite" --for python --output "$work/export.json"
run migrate --adal Fixtures/adal/dump-multiuser.xml.plist --out "$work/demo.sqlite" --now 2026-11-21T00:00:00Z \
  --report "$work/demo.md" --report-format markdown
nm -n -S --defined-only "$work/adal2msal" > "$work/symbols.list"
python3 - "$pages" "$work/symbols.list" scripts/release/text-order.txt <<'PY'
import sys
pages = {int(line, 16) >> 12 for line in open(sys.argv[1])}
names, seen = [], set()
for line in open(sys.argv[2]):
    fields = line.split()
    # address, size, type, name: functions only (t, T, W, w), each listed once
    if len(fields) != 4 or fields[2] not in "tTWw":
        continue
    start, size = int(fields[0], 16), int(fields[1], 16)
    if size and fields[3] not in seen and any(p in pages for p in range(start >> 12, ((start + size - 1) >> 12) + 1)):
        seen.add(fields[3])
        names.append(fields[3])
open(sys.argv[3], "w").write("\n".join(names) + "\n")
print(f"make-text-order.sh: {len(pages)} code pages touched, {len(names)} functions on them listed in {sys.argv[3]}")
PY
# SwiftPM does not see the list change: the binary is removed so that the next build links it again.
rm -f "$bin/adal2msal"
