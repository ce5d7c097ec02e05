#!/usr/bin/env bash
# Checks that need no build: paths that would collide on a case-insensitive file system (macOS's default), standard-
# library API newer than the macOS that Package.swift names (a Mac's compiler refuses it; Linux's does not), files
# and sections the docs and comments cite that a clone does not hold, and swift-format's lint with the
# repository's .swift-format (the toolchain ships swift-format). To fix what the
# lint reports: swift-format format -i -r Sources Tests Package.swift
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/check-paths.sh
python3 scripts/check-platform-api.py
python3 scripts/check-doc-references.py
swift-format lint --strict --recursive --parallel Sources Tests Package.swift
echo "lint: swift-format found nothing to change"
