#!/usr/bin/env bash
# Sets up what a fresh machine lacks, builds adal2msal, and runs the demo migration on the bundled fixtures:
# first a dry run (the diff report, nothing written), then the migration into out/demo.sqlite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
swift build -c release --product adal2msal
bin="$(swift build -c release --show-bin-path)/adal2msal"
"$bin" inspect Fixtures/adal-objc/adal_v1_backcompat_item.bplist
