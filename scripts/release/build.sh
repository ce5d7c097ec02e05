#!/usr/bin/env bash
# Builds the release adal2msal as a Linux user should run it, with any `swift build` arguments added
# (`--product adal2msal`, `--product adal2msal-bench`, `--show-bin-path`): the one place that knows the flags
# (docs/building.md, "The release binary on Linux").
#
# On Linux: the Swift runtime and Foundation linked in (`--static-swift-stdlib`); and, when the toolchain has
# lld, the code a migration runs laid out together (`scripts/release/text-order.txt`, each function in a section of
# its own so that the linker can move it, and the functions without a symbol gathered before them by
# `scripts/release/text-layout.ld`), so that the kernel maps fewer pages of the binary, and the relative
# relocations packed (`-z pack-relative-relocs`) when the building machine's glibc can load them (2.36 and later;
# the binary then needs that glibc where it runs), its own symbols not exported (`--no-export-dynamic`: nothing
# looks them up, and their tables were a MiB of every run's memory), and, when patchelf is installed, libxml2 not
# loaded at its start (`patchelf --remove-needed`: the XML reader looks libxml2 up by name when it first reads an
# XML property list, so a binary dump or JSON maps neither libxml2 nor the ICU it loads). A built adal2msal is then
# checked to be linked so (`check_layout.py`). ADAL2MSAL_PLAIN_LINK=1 links as `swift build` does by default.
# Also on Linux, when the toolchain has llvm-profdata: the code compiled with the counts of a migration's runs
# (`scripts/release/profile.proftext`, LLVM's IR-level profile-guided optimization: which branches and calls are hot),
# unless ADAL2MSAL_NO_PROFILE=1 (scripts/release/make-profile.sh, which writes the profile, builds so).
# On macOS: `swift build -c release`.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
order="$repo/scripts/release/text-order.txt"
profile="$repo/scripts/release/profile.proftext"
flags=(-c release)
laid_out=""
packed=""
unlinked=""
if [ "$(uname -s)" = Linux ]; then
  flags+=(--static-swift-stdlib)
  toolchain="$(dirname "$(command -v swift)")"
  if [ -z "${ADAL2MSAL_NO_PROFILE:-}" ] && [ -f "$profile" ] && [ -x "$toolchain/llvm-profdata" ]; then
    # The compiler reads the indexed form, made once for each version of the text and named by its digest.
    digest="$(sha256sum "$profile" | cut -c1-16)"
    indexed="$repo/.build/profiles/$digest.profdata"
    if [ ! -f "$indexed" ]; then
      mkdir -p "$(dirname "$indexed")"
      "$toolchain/llvm-profdata" merge -o "$indexed.partial" "$profile"
      mv "$indexed.partial" "$indexed"
    fi
    # swift-driver does not pass -ir-profile-use on to the frontend.
    flags+=(-Xswiftc -Xfrontend -Xswiftc "-ir-profile-use=$indexed")
  fi
  if [ -z "${ADAL2MSAL_PLAIN_LINK:-}" ] && [ -x "$toolchain/ld.lld" ]; then
    laid_out=1
    flags+=(
      -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xswiftc -use-ld=lld
      -Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering -Xlinker --no-export-dynamic
      -Xlinker -T -Xlinker "$repo/scripts/release/text-layout.ld"
    )
    glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
    if [ -n "$glibc" ] && [ "$(printf '%s\n' 2.36 "$glibc" | sort -V | head -n 1)" = 2.36 ]; then
      packed=--packed
      flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
    fi
  fi
fi
case " $* " in *" --show-bin-path "*) exec swift build "${flags[@]}" "$@" ;; esac
built="$(swift build "${flags[@]}" "$@" --show-bin-path)"
profiled="${digest:-none}"
# SwiftPM does not compile again when only a -Xfrontend flag changed: the Swift objects compiled with another profile,
# or none, are removed, and the build compiles them with this one (the C objects take no profile).
if [ "$(uname -s)" = Linux ] && [ -d "$built" ] && [ "$(cat "$built/.profile" 2> /dev/null)" != "$profiled" ]; then
  find "$built" -name '*.swift.o' -delete
fi
swift build "${flags[@]}" "$@"
echo "$profiled" > "$built/.profile"
binary="$built/adal2msal"
[ -n "$laid_out" ] && [ -x "$binary" ] || exit 0
if command -v patchelf > /dev/null; then
  # SwiftPM links libxml2 from its pkg-config entry, before any option that could leave it out; no symbol of the
  # binary refers to it (check_layout.py checks). Removing an entry that is gone already changes nothing.
  patchelf --remove-needed libxml2.so.2 "$binary"
  unlinked=--without-libxml2
else
  echo "build.sh: patchelf is not installed, so the binary loads libxml2 at its start (scripts/bootstrap.sh)" >&2
fi
python3 scripts/release/check_layout.py "$binary" "$order" $packed $unlinked
