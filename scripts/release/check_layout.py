#!/usr/bin/env python3
"""Checks that a release adal2msal was linked as scripts/release/build.sh asks on Linux with lld: the functions of
scripts/release/text-order.txt laid out first in .text, in its order, after the functions without a symbol
(scripts/release/text-layout.ld), its own symbols not exported, the relative relocations packed when asked
(--packed), and libxml2 neither needed at start nor referred to when asked (--without-libxml2). Exits 1 naming what
is wrong; otherwise prints what it found.

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
    address = {}
    symbols = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTWw":
            address.setdefault(fields[3], int(fields[0], 16))
    listed = [name.strip() for name in open(order_file) if name.strip()]
    placed = [name for name in listed if name in address]
    problems = []
    # Functions removed or renamed since the list was made are missing; most must still be there.
    if len(placed) < len(listed) // 2:
        problems.append(f"only {len(placed)} of the {len(listed)} listed functions are in the binary: regenerate "
                        "the list (scripts/release/make-text-order.sh)")
    # Laid out by the list, the listed functions follow one another in its order from the start of .text (a function
    # in a section that holds others, as the Swift runtime's archives have, goes where its section's first listed
    # function does). In the compiler's order about half of them come after the one listed before them.
    addresses = [address[name] for name in placed]
    share = sum(1 for before, after in zip(addresses, addresses[1:]) if after > before) / max(1, len(addresses) - 1)
    first = addresses[0] - start if addresses else 0
    if placed and (share < 0.95 or first >= 4096):
        problems.append(f"the listed functions are not laid out first (only {share:.1%} of them in the list's order, "
                        f"the first {first} bytes into .text): was the binary linked by lld with "
                        "--symbol-ordering-file?")
    # The functions the compiler leaves without a symbol, which the list cannot name, gathered by the linker script.
    if " .text.private " not in sections:
        problems.append("no .text.private section: was it linked with scripts/release/text-layout.ld?")
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
              f"in the list's order from the start of .text, the functions without a symbol before them, {exported} "
              "symbols exported"
              f"{', relocations packed' if packed else ''}"
              f"{', libxml2 loaded on first use' if without_libxml2 else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
