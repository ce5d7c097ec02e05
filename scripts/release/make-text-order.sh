#!/usr/bin/env bash
# Regenerates scripts/release/text-order.txt: the functions the release adal2msal runs, which scripts/release/build.sh
# has the linker lay out together, so that the kernel maps fewer pages of the binary's code (docs/building.md,
# "The release binary on Linux"). Run it after code changes that rename or add much of what a migration runs, and after
# scripts/release/make-profile.sh (the profile changes what the compiler inlines): a stale list costs memory, never
# correctness. It needs valgrind (Debian: apt-get install valgrind):
#
#     bash scripts/release/make-text-order.sh
#
# It builds the release binary (scripts/release/build.sh) and runs it under callgrind, which records the address of
# every instruction run, on a generated 10k-item dump (the issue-23 `migrate`, its dry run, the run again into its
# store, `inspect`, `export`) and on the demo's dump. The list is the functions those instructions lie in
# (scripts/release/order_functions.py), run by run, each run's in the order they first ran: first the ones in
# sections of their own, which the linker can place one by one, then the ones that share a section of the Swift
# runtime's and Foundation's archives with others.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
[ "$(uname -s)" = Linux ] || { echo "make-text-order.sh: Linux only" >&2; exit 1; }
for tool in valgrind objcopy objdump nm python3; do
  command -v "$tool" > /dev/null || { echo "make-text-order.sh: $tool is not installed" >&2; exit 1; }
done

bash scripts/release/build.sh --product adal2msal
bash scripts/release/build.sh --product adal2msal-bench
bin="$(bash scripts/release/build.sh --show-bin-path)"
archives="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift_static/linux"
[ -d "$archives" ] || { echo "make-text-order.sh: no static runtime at $archives" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin/adal2msal-bench" generate --users 2500 --out "$work/dump" --format binary-plist --seed 1 > /dev/null
dump="$(ls "$work"/dump/*)"

# Valgrind gives up on the debug information lld writes for this binary ("Possibly corrupted debuginfo file"): the
# runs use a copy without it, whose code and symbols are the binary's.
objcopy --strip-debug "$bin/adal2msal" "$work/adal2msal"
runs=()
run() {
  local calls="$work/calls.${#runs[@]}" status=0
  # Every executed instruction's address (`--dump-instr`), in parts of 20 million basic blocks as the run goes.
  valgrind --tool=callgrind --dump-instr=yes --dump-every-bb=20000000 --callgrind-out-file="$calls" \
    "$work/adal2msal" "$@" > /dev/null 2>&1 || status=$?
  # 2: written, with items that could not be read (the demo's dump holds one on purpose).
  [ "$status" -eq 0 ] || [ "$status" -eq 2 ] || { echo "make-text-order.sh: adal2msal $* exited $status" >&2; exit 1; }
  runs+=("$calls")
}
now=2026-01-01T00:00:00Z
run migrate --adal "$dump" --out "$work/store.sqlite" --now "$now" --report "$work/report.txt"
run migrate --adal "$dump" --out "$work/dry.sqlite" --dry-run --now "$now" --report "$work/dry.txt"
run migrate --adal "$dump" --out "$work/store.sqlite" --now "$now" --report "$work/again.txt"
run inspect "$dump"
run export "$work/store.sqlite" --for python --output "$work/export.json"
run migrate --adal Fixtures/adal/dump-multiuser.xml.plist --out "$work/demo.sqlite" --now 2026-11-21T00:00:00Z \
  --report "$work/demo.md" --report-format markdown
nm -n -S --defined-only "$work/adal2msal" > "$work/symbols.list"
# The archives' functions and their sections ("ADDRESS FLAGS F SECTION SIZE NAME"; the flags may be several words).
for archive in "$archives"/*.a; do
  objdump -t "$archive" 2> /dev/null | awk '/ F \.text/ { for (i = 1; i < NF; i++) if ($i == "F") print $(i + 1), $NF }'
done > "$work/sections.list"
python3 scripts/release/order_functions.py "$work/adal2msal" "$work/symbols.list" "$work/sections.list" \
  scripts/release/text-order.txt "${runs[@]}"
# SwiftPM does not see the list change: the binary is removed so that the next build links it again.
rm -f "$bin/adal2msal"
