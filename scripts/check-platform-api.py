#!/usr/bin/env python3
"""Fails when the sources use standard-library API newer than the macOS that Package.swift's `platforms` names.

On a Mac the compiler refuses such a use; on Linux, where CI builds, nothing does, and a package that says macOS 13
while using `Int128` (macOS 15) fails to build on every Mac. This reads the availability of the toolchain's own
module interfaces (Swift, _Concurrency, Synchronization, _StringProcessing, RegexBuilder) and looks in Sources,
Tests and Fuzz for the types, and the initializers by their first label (`String(validating:`), introduced after
that macOS.

It is a text check, not the compiler's: it finds names, not overloads, and does not see Foundation, whose Linux
build ships no interface. On macOS it skips (the compiler checks there); elsewhere, finding no interfaces is an
error, not a pass. Usage: check-platform-api.py [--macos VERSION] (default: the version Package.swift names).
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["Swift", "_Concurrency", "Synchronization", "_StringProcessing", "RegexBuilder"]
AVAILABLE = re.compile(r"@available\(macOS (\d+)(?:\.(\d+))?")
TYPE = re.compile(r"\b(?:struct|enum|class|protocol|actor)\s+(\w+)")
INIT = re.compile(r"\binit[?!]?(?:<[^(]*>)?\((\w+)")
CONTEXT = re.compile(r"^(?:@\S+\s+)*(?:public\s+)?(?:final\s+)?(?:extension|struct|enum|class|protocol|actor)\s+"
                     r"(?:Swift\.)?(\w+)")


def declared_platform():
    text = (ROOT / "Package.swift").read_text()
    found = re.search(r"\.macOS\(\.v(\d+)(?:_(\d+))?\)", text)
    if not found:
        sys.exit("check-platform-api: Package.swift names no macOS platform")
    return (int(found.group(1)), int(found.group(2) or 0))


def interfaces():
    """The module interfaces of the toolchain that `swift` runs (asked of the compiler, so that a shim such as
    swiftly's finds the real one), or none where there is no Swift or no Linux toolchain."""
    try:
        info = json.loads(subprocess.run(["swift", "-print-target-info"], capture_output=True, check=True).stdout)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return []
    found = []
    for folder in info.get("paths", {}).get("runtimeLibraryImportPaths", []):
        for module in MODULES:
            found += sorted(pathlib.Path(folder, f"{module}.swiftmodule").glob("*.swiftinterface"))
    return found


def newer_api(paths, platform):
    """Type names, and (type, first label) of initializers, introduced after `platform`."""
    types, inits = {}, {}
    for path in paths:
        context, pending = None, []
        for line in path.read_text(errors="replace").splitlines():
            stripped = line.strip()
            versions = [(int(major), int(minor or 0)) for major, minor in AVAILABLE.findall(line)]
            is_attribute_only = stripped.startswith("@") and not re.search(
                r"\b(func|init|var|let|struct|enum|class|protocol|actor|extension|typealias|subscript)\b", stripped)
            if is_attribute_only:
                pending += versions
                continue
            introduced = max(pending + versions, default=None)
            pending = []
            # The type whose members follow: set by a top-level declaration, ended by its closing brace (the
            # interfaces' `#if` lines also start at the margin, inside declarations).
            if (match := CONTEXT.match(line)) is not None:
                context = match.group(1)
            elif line.startswith("}"):
                context = None
            if introduced is None or introduced <= platform:
                continue
            # Top-level types only: a nested one (`UTF8.ValidationError`) is named through its outer type.
            if (match := TYPE.search(stripped)) and not line.startswith(" ") and not match.group(1).startswith("_"):
                types.setdefault(match.group(1), introduced)
            elif context and not context.startswith("_") and (match := INIT.search(stripped)):
                if match.group(1) != "_":
                    inits.setdefault((context, match.group(1)), introduced)
    return types, inits


def own_types():
    names = set()
    for path in swift_files():
        names.update(TYPE.findall(path.read_text()))
    return names


def swift_files():
    """The package's own Swift files: what a Mac compiles for `swift build`, `swift test` and the fuzzers."""
    return sorted(path for folder in ("Sources", "Tests", "Fuzz") for path in (ROOT / folder).rglob("*.swift")
                  if ".build" not in path.parts)


def uses(types, inits):
    ours = own_types()
    patterns = [(re.compile(rf"(?<![\w.]){re.escape(name)}\b"), name, version)
                for name, version in types.items() if name not in ours]
    patterns += [(re.compile(rf"(?<![\w.]){re.escape(owner)}\(\s*{re.escape(label)}:"), f"{owner}({label}:)", version)
                 for (owner, label), version in inits.items()]
    found = []
    for path in swift_files():
        # Comments and string literals blanked line by line, then searched whole: a call can span lines.
        code = "\n".join(
            re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("//", 1)[0]) for line in path.read_text().splitlines())
        for pattern, name, version in patterns:
            for match in pattern.finditer(code):
                found.append((path.relative_to(ROOT), code.count("\n", 0, match.start()) + 1, name, version))
    return sorted(found, key=lambda use: (str(use[0]), use[1]))


def main(arguments):
    parser = argparse.ArgumentParser(description="Standard-library API newer than the declared macOS.")
    parser.add_argument("--macos", metavar="VERSION", help="check against this macOS, not Package.swift's (e.g. 14)")
    options = parser.parse_args(arguments)
    platform = declared_platform()
    if options.macos:
        major, _, minor = options.macos.partition(".")
        platform = (int(major), int(minor or 0))
    paths = interfaces()
    if not paths:
        if sys.platform == "darwin":
            print("check-platform-api: skipped on macOS, where the compiler checks availability itself")
            return 0
        sys.exit("check-platform-api: found no module interfaces of the Swift toolchain (`swift -print-target-info`)")
    types, inits = newer_api(paths, platform)
    if not types:
        sys.exit("check-platform-api: read no availability from the interfaces; the check would pass blindly")
    found = uses(types, inits)
    for path, number, name, version in found:
        print(f"{path}:{number}: {name} needs macOS {version[0]}.{version[1]}, "
              f"newer than the macOS {platform[0]}.{platform[1]} in Package.swift")
    if found:
        return 1
    print(f"check-platform-api: no standard-library API newer than macOS {platform[0]}.{platform[1]} "
          f"({len(types)} types and {len(inits)} initializers checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
