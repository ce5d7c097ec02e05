#!/usr/bin/env python3
"""Checks that a release adal2msal was linked as scripts/release/build.sh asks on Linux with lld: the functions of
scripts/release/text-order.txt laid out first in .text, its own symbols not exported, the relative relocations
packed when asked (--packed), and libxml2 neither needed at start nor referred to when asked (--without-libxml2).
Exits 1 naming what is wrong; otherwise prints what it found.

    python3 scripts/release/check_layout.py BINARY ORDER_FILE [--packed] [--without-libxml2]
"""
import subprocess
import sys


def text_start(sections: str, binary: str) -> int:
    for line in sections.splitlines():
        if " .text " in line:
            return int(line.split("]", 1)[1].split()[2], 16)
    raise SystemExit(f"check_layout.py: {binary}: no .text section")


def main() -> int:
    binary, order_file = sys.argv[1], sys.argv[2]
    packed = "--packed" in sys.argv[3:]
    without_libxml2 = "--without-libxml2" in sys.argv[3:]
    sections = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    start = text_start(sections, binary)
    address, size = {}, {}
    symbols = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTWw":
            address.setdefault(fields[3], int(fields[0], 16))
            size.setdefault(fields[3], int(fields[1], 16))
    listed = [name.strip() for name in open(order_file) if name.strip()]
    placed = [name for name in listed if name in address]
    problems = []
    # Functions removed or renamed since the list was made are missing; most must still be there.
    if len(placed) < len(listed) // 2:
        problems.append(f"only {len(placed)} of the {len(listed)} listed functions are in the binary: regenerate "
                        "the list (scripts/release/make-text-order.sh)")
    # Laid out by the list, the listed functions fill the start of .text: within twice their size of it (a listed
    # function inside a section that holds others, as the Swift runtime's archives have, brings the whole section
    # along). In the compiler's order about a sixth of them lie further on.
    region = start + 2 * sum(size[name] for name in placed)
    share = sum(1 for name in placed if address[name] < region) / max(1, len(placed))
    if placed and share < 0.95:
        problems.append(f"the listed functions are not laid out first (only {share:.1%} of them at the start of "
                        ".text): was the binary linked by lld with --symbol-ordering-file?")
    if packed and ".relr.dyn" not in sections:
        problems.append("no .relr.dyn section: the relative relocations were not packed")
    dynamic = subprocess.run(["readelf", "-dW", "--dyn-syms", binary], capture_output=True, text=True,
                             check=True).stdout
    # A symbol line: number, value, size, type, binding, visibility, section index (UND: from a library), name.
    dynamic_symbols = [fields for fields in (line.split() for line in dynamic.splitlines())
                       if len(fields) >= 8 and fields[0].endswith(":")]
    # Exported (the compiler's default for an executable linked with the runtime), the binary's own 15,545
    # symbols put their names and hashes in pages every run maps.
    exported = sum(1 for fields in dynamic_symbols if fields[6] != "UND" and fields[4] in ("GLOBAL", "WEAK"))
    if exported > 1000:
        problems.append(f"{exported} symbols exported: was it linked with --no-export-dynamic?")
    if without_libxml2:
        if "[libxml2." in dynamic:
            problems.append("libxml2 is still a library the binary needs at its start")
        referred = [fields[7] for fields in dynamic_symbols if fields[6] == "UND" and fields[7].startswith("xml")]
        if referred:
            problems.append(f"the binary refers to libxml2's {', '.join(referred[:3])}: it must look them up when "
                            "it reads XML (Sources/PropertyLists/LibXML2.swift)")
    for problem in problems:
        print(f"check_layout.py: {binary}: {problem}", file=sys.stderr)
    if not problems:
        print(f"check_layout.py: {len(placed)} of {len(listed)} listed functions in the binary, {share:.1%} of them "
              f"at the start of .text, {exported} symbols exported{', relocations packed' if packed else ''}"
              f"{', libxml2 loaded on first use' if without_libxml2 else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
