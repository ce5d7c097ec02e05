#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, and runs every test (unit, golden-file, oracle and
# end-to-end tests that run the built binary). This is the command CI runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/lint.sh
bash scripts/bootstrap.sh --test-oracles
export ADAL2MSAL_PYTHON="$PWD/.venv-oracle/bin/python"
swift build --build-tests
swift test --skip-build
