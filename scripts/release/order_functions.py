#!/usr/bin/env python3
"""Writes scripts/release/text-order.txt (make-text-order.sh): the functions whose instructions ran in callgrind's runs
of the binary, each once, in the order the linker is to lay them out.

    python3 scripts/release/order_functions.py BINARY SYMBOLS SHARED OUT RUN...

BINARY is the binary the runs used, as callgrind names it; SYMBOLS its `nm -n -S --defined-only`; SHARED the functions
of the toolchain's static archives with their sections (`objdump -t`: a section and a name per line), of which those
in `.text` share it with the rest of their object; each RUN one run's callgrind output (`--dump-instr=yes`, in parts
with `--dump-every-bb`), the runs in order of importance. The functions in sections of their own come first, run by
run, each run's in the order they first ran; then those in shared sections, which bring their whole section along
wherever the list names them, so that they do not split the first group.
"""
import bisect
import glob
import re
import sys


def executed_addresses(run: str, binary: str):
    """The addresses of the instructions of `binary` that ran, from callgrind's output with `--dump-instr=yes`.

    By address, looked up in the binary's own symbols: callgrind's names for the code differ from them where a symbol
    is missing or shared (an address, a neighbour's name, a recursion's 'N suffix).
    """
    objects, current, address = {}, None, 0
    for line in open(run, errors="replace"):
        line = line.strip()
        if not line:
            continue
        # `ob=(id) path` names an object the first time (`cob=` too); the cost lines after `ob=` are its code.
        match = re.match(r"(c?ob)=\((\d+)\)(?: (.+))?$", line)
        if match:
            if match.group(3):
                objects[match.group(2)] = match.group(3)
            if match.group(1) == "ob":
                current = objects.get(match.group(2))
            continue
        if line[0].isalpha() or current != binary:
            continue
        # A cost line: the instruction's address (absolute, relative to the previous one, or the same: `*`), then
        # its line and costs.
        position = line.split()[0]
        if position.startswith("0x"):
            address = int(position, 16)
        elif position[0] in "+-":
            address += int(position)
        elif position != "*":
            continue
        yield address


def dumps(run: str) -> list:
    """A run's callgrind output in the order it was written: with `--dump-every-bb`, callgrind writes `RUN.1`,
    `RUN.2`... as the run goes, and `RUN` at its end."""
    parts = glob.glob(glob.escape(run) + ".*")
    numbered = sorted((int(part.rsplit(".", 1)[1]), part) for part in parts if part.rsplit(".", 1)[1].isdigit())
    return [part for _, part in numbered] + [run]


def main() -> int:
    binary, symbols, shared_file, out, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    functions = []  # (address, size, name), by address
    for line in open(symbols):
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTWw" and int(fields[1], 16):
            functions.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    functions.sort()
    starts = [address for address, _, _ in functions]
    shared = set()
    for line in open(shared_file):
        fields = line.split()
        if len(fields) == 2 and fields[0] == ".text":
            shared.add(fields[1])

    def containing(address: int):
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0 and functions[index][0] <= address < functions[index][0] + functions[index][1]:
            return functions[index][2]
        return None

    position = {name: index for index, (_, _, name) in enumerate(functions)}
    groups = {False: [], True: []}  # in a shared section or not
    listed = set()
    for run in runs:
        # A function's place: the part of the run it first ran in, then its address.
        first = {}
        for part, dump in enumerate(dumps(run)):
            for address in executed_addresses(dump, binary):
                name = containing(address)
                if name and name not in first:
                    first[name] = part
        for name in sorted(first, key=lambda name: (first[name], position[name])):
            if name not in listed:
                listed.add(name)
                groups[name in shared].append(name)
        print(f"order_functions.py: {run}: {len(first)} functions of the binary ran")
    names = groups[False] + groups[True]
    open(out, "w").write("\n".join(names) + "\n")
    size = {}
    for _, length, name in functions:
        size.setdefault(name, length)
    print(f"order_functions.py: {len(names)} functions listed in {out} ({len(groups[True])} of them in shared "
          f"sections), {sum(size[name] for name in names) / 1048576:.2f} MiB of code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
