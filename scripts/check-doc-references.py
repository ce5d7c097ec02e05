#!/usr/bin/env python3
"""Checks that the repository's docs and comments cite only what a clone holds.

A newcomer reads a clone, not the machine it was written on: every repository path or document a document or a
source comment names (`docs/formats.md`, `scripts/bench/straightforward_migrate.py`, `mapping.md`, a Markdown
link) must exist, a section cited by its heading (`docs/formats.md, "ADAL.NET v3 entries"`) must be a section of
that document, and nothing may point outside the repository but the real cache files the tests read in place
(`../shared/realworld`). CHANGELOG.md is history and is not checked.
"""

import bisect
import functools
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE_ALLOWED = ("../shared/realworld",)
TOP_DIRECTORIES = ("docs", "scripts", "Sources", "Tests", "Fixtures", "Fuzz", ".ci")

PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*[\w-])" % "|".join(re.escape(d) for d in TOP_DIRECTORIES))
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
OUTSIDE = re.compile(r"(?<![\w.])\.\./[\w./-]+")
BARE_DOCUMENT = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")
SECTION = re.compile(r"((?:docs/)?[\w-]+\.md),\s+\"([^\"]+)\"")
COMMENT_MARKER = re.compile(r"^\s*(?:///?|#)\s?")
BOLD_LEAD = re.compile(r"^\*\*([^*]+?)\.?\*\*")


def tracked_files():
    listing = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / line for line in listing.splitlines() if line.endswith((".md", ".swift", ".sh", ".py"))]


@functools.cache
def headings(path):
    """A document's sections: its headings, and the paragraphs that open with a bold label (`**Counting calls.**`)."""
    names = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            names.append(line.lstrip("#").strip())
        elif match := BOLD_LEAD.match(line):
            names.append(match.group(1))
    return names


def exists(name):
    """A path in the repository; a test suite may be named without its `.swift`."""
    return (ROOT / name).exists() or (ROOT / (name + ".swift")).is_file()


def resolve_doc(name, citing):
    for candidate in (ROOT / name, citing.parent / name, ROOT / "docs" / name):
        if candidate.is_file():
            return candidate
    return None


def problems_in(path, documents):
    text = path.read_text(encoding="utf-8")
    relative = path.relative_to(ROOT)
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{relative}:{number}"
        for match in PATH.finditer(line):
            name = match.group(1).rstrip(".")
            if not exists(name):
                yield f"{where}: names {name}, which the repository does not hold"
        # Code computes relative paths (a script that changes to its parent directories) and names files it writes;
        # only prose and comments cite files.
        is_prose = path.suffix == ".md" or line.lstrip().startswith(("//", "#"))
        for match in BARE_DOCUMENT.finditer(line if is_prose else ""):
            if match.group(1) not in documents:
                yield f"{where}: names {match.group(1)}, which the repository does not hold"
        if path.suffix == ".md":
            for match in LINK.finditer(line):
                target = match.group(1)
                if "://" in target or target.startswith("mailto:"):
                    continue
                if not (path.parent / target).exists():
                    yield f"{where}: links to {target}, which the repository does not hold"
        for match in OUTSIDE.finditer(line if is_prose else ""):
            if not match.group(0).startswith(OUTSIDE_ALLOWED):
                yield f"{where}: names {match.group(0)}, outside the repository"
    yield from section_problems(path, text, relative)


def section_problems(path, text, relative):
    """Sections cited as `FILE.md, "Heading"`, read over the whole file with comment markers taken out, since a
    citation often wraps onto the next line."""
    starts, pieces, offset = [], [], 0
    for line in text.splitlines():
        piece = COMMENT_MARKER.sub("", line)
        starts.append(offset)
        pieces.append(piece)
        offset += len(piece) + 1
    joined = " ".join(pieces)
    for match in SECTION.finditer(joined):
        document = resolve_doc(match.group(1), path)
        if document is None:
            continue
        section = " ".join(match.group(2).split())
        if not any(heading == section or heading.startswith(section) for heading in headings(document)):
            number = bisect.bisect_right(starts, match.start())
            yield f"{relative}:{number}: cites \"{section}\" of {match.group(1)}, which has no such heading"


def main():
    # Package.swift names a directory it must not have (a case twin) to say why.
    skipped = {"CHANGELOG.md", "Package.swift"}
    files = tracked_files()
    documents = {path.name for path in files if path.suffix == ".md"}
    problems = [p for path in files if path.name not in skipped for p in problems_in(path, documents)]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-doc-references: {len(problems)} reference(s) a clone cannot follow", file=sys.stderr)
        return 1
    print("check-doc-references: every cited path and section is in the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
