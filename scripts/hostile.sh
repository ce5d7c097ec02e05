#!/usr/bin/env bash
# CI's hostile-input step: builds the libFuzzer targets and runs each for SECONDS (default 60), two at a time.
#   scripts/hostile.sh [SECONDS]
# Exits non-zero when a target finds a crashing, hanging or memory-exhausting input (its path is printed) or
# the build fails. The bad-input, limit, secret-leak and fault tests run with the rest of the suite
# (scripts/test.sh, target EndToEndTests). See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec bash scripts/fuzz.sh "${1:-60}"
