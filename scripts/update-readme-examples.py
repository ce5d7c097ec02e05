#!/usr/bin/env python3
"""Refreshes the example outputs in README.md from the built binary, so the README shows real output.

Usage: python3 scripts/update-readme-examples.py [path/to/adal2msal]   (default: .build/debug/adal2msal)

Each block between `<!-- example:NAME -->` and `<!-- /example -->` is replaced by the output of the command
below (abridged to a window of lines, marked with an ellipsis line).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/adal2msal")
DUMP = "Fixtures/adal/dump-multiuser.xml.plist"
NOW = "2026-11-21T00:00:00Z"


def run(args):
    env = dict(os.environ, NO_COLOR="1")
    out = subprocess.run([BIN] + args, cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode not in (0, 2):
        sys.exit("%s failed (%d): %s" % (" ".join(args), out.returncode, out.stderr))
    return out.stdout


def window(text, first, count):
    lines = text.rstrip("\n").split("\n")
    chosen = lines[first : first + count]
    if first + count < len(lines):
        chosen.append("...")
    return "\n".join(chosen)


def main():
    migrate = ["migrate", "--adal", DUMP, "--out", "/nonexistent/demo.sqlite", "--dry-run", "--now", NOW]
    store = os.path.join(tempfile.mkdtemp(), "demo.sqlite")
    run(["migrate", "--adal", DUMP, "--out", store, "--now", NOW, "--report-format", "json"])
    examples = {
        "report-text": "$ adal2msal " + " ".join(migrate) + "\n" + window(run(migrate), 0, 44),
        "report-json": window(run(migrate + ["--report-format", "json"]), 0, 40),
        "report-markdown": window(run(migrate + ["--report-format", "markdown"]), 0, 30),
        "inspect-text": "$ adal2msal inspect " + DUMP + "\n" + window(run(["inspect", DUMP]), 0, 8),
        "accounts-text": "$ adal2msal accounts demo.sqlite --username ALICE@contoso.com\n"
        + run(["accounts", store, "--username", "ALICE@contoso.com"]).rstrip("\n"),
    }
    path = os.path.join(ROOT, "README.md")
    text = open(path).read()
    for name, body in examples.items():
        pattern = re.compile(r"(<!-- example:%s -->\n```[a-z]*\n).*?(```\n<!-- /example -->)" % re.escape(name), re.S)
        text, count = pattern.subn(lambda m: m.group(1) + body.replace("/nonexistent/", "") + "\n" + m.group(2), text)
        if count != 1:
            sys.exit("README.md has no block for example " + name)
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
