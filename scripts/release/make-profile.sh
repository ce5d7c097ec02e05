#!/usr/bin/env bash
# Regenerates scripts/release/profile.proftext: how often each branch and call of adal2msal's Swift code ran in a
# set of migrations, which scripts/release/build.sh has the compiler optimize by (LLVM's IR-level profile-guided
# optimization; docs/building.md, "The release binary on Linux"). Run it after code changes to what a migration runs
# (the compiler uses a function's counts only while its code is as it was counted: a stale profile costs speed, never
# correctness), then scripts/release/make-text-order.sh, whose layout is of the binary built with the profile:
#
#     bash scripts/release/make-profile.sh && bash scripts/release/make-text-order.sh
#
# It builds an instrumented adal2msal and dump generator in a directory of its own (as build.sh builds, without a
# profile), runs adal2msal on generated dumps of 2,500 users in every dump format (another seed than the benchmarks'
# dumps: the migrations, their dry runs, a run into an existing store, each report format, `inspect`, `accounts`,
# `export`, `import`) and on every file under Fixtures/ (`inspect`, dry runs as ADAL and as MSAL input, whatever each
# one makes of it), and writes the counts, leaving out the functions that never ran, as text.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
[ "$(uname -s)" = Linux ] || { echo "make-profile.sh: Linux only" >&2; exit 1; }
toolchain="$(dirname "$(command -v swift)")"
profdata="$toolchain/llvm-profdata"
runtime="$(dirname "$toolchain")/lib/swift/clang/lib/linux/libclang_rt.profile-$(uname -m).a"
[ -x "$profdata" ] || { echo "make-profile.sh: no llvm-profdata beside swift ($profdata)" >&2; exit 1; }
[ -f "$runtime" ] || { echo "make-profile.sh: no profile runtime at $runtime" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# swift-driver passes neither -ir-profile-generate to the frontend nor the profile runtime to the linker: both given
# here. The dump generator is built the same way, so that the build does not touch .build's.
instrumented=(--scratch-path "$work/build" -Xswiftc -Xfrontend -Xswiftc "-ir-profile-generate=$work/counts"
  -Xlinker "$runtime" -Xlinker -u__llvm_profile_runtime)
ADAL2MSAL_NO_PROFILE=1 bash scripts/release/build.sh "${instrumented[@]}" --product adal2msal
ADAL2MSAL_NO_PROFILE=1 bash scripts/release/build.sh "${instrumented[@]}" --product adal2msal-bench
binary="$work/build/release/adal2msal"
LLVM_PROFILE_FILE="$work/generator.profraw" "$work/build/release/adal2msal-bench" generate --users 2500 \
  --out "$work/dumps" --format all --seed 7 > /dev/null
# Each run of adal2msal writes its counts to a file of its own (%p, the process id).
mkdir -p "$work/counts"
export LLVM_PROFILE_FILE="$work/counts/%p.profraw"
now=2026-01-01T00:00:00Z
run() {
  local status=0
  "$binary" "$@" > /dev/null 2>&1 || status=$?
  # 2: written, with items that could not be read.
  [ "$status" -eq 0 ] || [ "$status" -eq 2 ] || { echo "make-profile.sh: adal2msal $* exited $status" >&2; exit 1; }
}
dump="$work/dumps/synthetic-2500-users.bplist"
run migrate --adal "$dump" --dry-run --now "$now" --report "$work/report.txt" -q
run migrate --adal "$dump" --out "$work/store.sqlite" --now "$now" --report "$work/report.txt" -q
run migrate --adal "$dump" --out "$work/store.sqlite" --now "$now" --report "$work/report.md" --report-format markdown \
  -q
run migrate --adal "$dump" --dry-run --now "$now" --report "$work/report.json" --report-format json -q
for other in "$work"/dumps/*; do
  [ "$other" = "$dump" ] || run migrate --adal "$other" --dry-run --now "$now" --report "$work/report.txt" -q
done
run inspect "$dump"
run accounts "$work/store.sqlite"
run export "$work/store.sqlite" --output "$work/export.json"
run import "$work/export.json" --out "$work/imported.sqlite" -q
# The fixtures hold inputs of every reader, and broken ones: any exit status is what the file makes of it.
find Fixtures -type f ! -name '*.md' ! -name '*.txt' | sort | while read -r fixture; do
  "$binary" inspect "$fixture" > /dev/null 2>&1 || true
  "$binary" migrate --adal "$fixture" --dry-run --now "$now" --report "$work/fixture.txt" -q > /dev/null 2>&1 || true
  "$binary" migrate --msal "$fixture" --dry-run --now "$now" --report "$work/fixture.txt" -q > /dev/null 2>&1 || true
done
"$profdata" merge --sparse -o "$work/counts.profdata" "$work"/counts/*.profraw
"$profdata" merge --text -o "$work/counts.proftext" "$work/counts.profdata"
# In LLVM's text form a line that starts with `$` after a function's counters gives its MC/DC bitmap, and every Swift
# symbol starts with `$`: the next function's name would be read as one. Each function is given an empty bitmap
# (`$0`), which reads back as none.
python3 - "$work/counts.proftext" scripts/release/profile.proftext << 'PY'
import sys

lines = open(sys.argv[1]).read().split("\n")
out = []
i = 0
while i < len(lines):
    out.append(lines[i])
    if lines[i] == "# Counter Values:":
        count = int(lines[i - 1])
        out.extend(lines[i + 1 : i + 1 + count])
        out.append("$0")
        i += 1 + count
        continue
    i += 1
open(sys.argv[2], "w").write("\n".join(out))
PY
# The text must read back as the counts it was made from (build.sh reads it so).
"$profdata" merge -o "$work/again.profdata" scripts/release/profile.proftext
summary() { "$profdata" show "$1" | grep -E '^(Total functions|Total count|Maximum function count):'; }
[ "$(summary "$work/counts.profdata")" = "$(summary "$work/again.profdata")" ] \
  || { echo "make-profile.sh: scripts/release/profile.proftext does not read back as the counts" >&2; exit 1; }
echo "make-profile.sh: $(summary "$work/again.profdata" | head -n 1 | awk '{print $3}') functions in scripts/release/profile.proftext"
