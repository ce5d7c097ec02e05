#!/usr/bin/env bash
# Sets up what a fresh Debian machine lacks, builds adal2msal, and runs the demo migration on the bundled
# fixtures: the dry run (the diff report, nothing written), the migration into out/demo.sqlite, a second run
# that changes nothing, an accountForUsername lookup, the export for MSAL Python, and an Azure CLI
# accessTokens.json migrated into an Azure CLI 2.30+ directory (out/azure).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
# The release binary as a user runs it (scripts/release/build.sh, docs/building.md): on Linux with the Swift runtime
# and Foundation linked in, and the code a migration runs laid out together.
bash scripts/release/build.sh --product adal2msal
bin="$(bash scripts/release/build.sh --show-bin-path)/adal2msal"
dump=Fixtures/adal/dump-multiuser.xml.plist
now=2026-11-21T00:00:00Z   # pinned, so the demo's expiry decisions never change
mkdir -p out
rm -f out/demo.sqlite out/demo.sqlite-wal out/demo.sqlite-shm

step() { printf '\n==> %s\n' "$*"; }
# Exit status 2 means "written, but something could not be read or modelled": the demo dump holds, on purpose,
# an ADFS item without an id token, whose user cannot get an MSAL identity offline (its guest, tombstone,
# expired access tokens and wipe marker are policy skips, which alone would exit 0; docs/verdicts.md). Its users
# also hold app refresh tokens that MSAL Python keys like their family tokens, of other secrets: the export for
# MSAL Python names them and exits 2 too.
run() { local status=0; "$@" || status=$?; [ "$status" -eq 0 ] || [ "$status" -eq 2 ] || exit "$status"; }

step "adal2msal inspect $dump"
run "$bin" inspect "$dump"
step "adal2msal migrate --dry-run (nothing is written)"
run "$bin" migrate --adal "$dump" --out out/demo.sqlite --dry-run --now "$now"
test ! -e out/demo.sqlite
step "adal2msal migrate (writes out/demo.sqlite, report in out/demo-report.md)"
run "$bin" migrate --adal "$dump" --out out/demo.sqlite --now "$now" --report out/demo-report.md --report-format markdown
step "adal2msal migrate again: nothing changes"
run "$bin" migrate --adal "$dump" --out out/demo.sqlite --now "$now" --report-format json --report out/demo-rerun.json
python3 -c 'import json,sys; a=json.load(open("out/demo-rerun.json"))["summary"]["actions"]; print("second run:", a); sys.exit(a["add"] or a["update"])'
step "adal2msal accounts out/demo.sqlite --username alice@contoso.com"
"$bin" accounts out/demo.sqlite --username alice@contoso.com
step "adal2msal export out/demo.sqlite --for python --output out/demo-msal.json (keys as MSAL Python computes them)"
run "$bin" export out/demo.sqlite --for python --output out/demo-msal.json

# Azure CLI <= 2.29's accessTokens.json, written by the real adal 1.2.7 on a clock of 2099-11-20 in Berlin
# (expiresOn is local time without an offset, so the zone matters), into the files Azure CLI 2.30+ reads.
azure_tokens=Fixtures/adal-python/accessTokens.json
rm -rf out/azure out/azure.sqlite out/azure.sqlite-wal out/azure.sqlite-shm
mkdir -p out/azure
step "adal2msal migrate --adal $azure_tokens --azure-cli-dir out/azure (msal_token_cache.json, service_principal_entries.json)"
run env TZ=Europe/Berlin "$bin" migrate --adal "$azure_tokens" --out out/azure.sqlite --now 2099-11-20T09:30:00Z \
  --report out/azure-report.md --report-format markdown --azure-cli-dir out/azure
ls -l out/azure
echo "demo done: out/demo.sqlite, out/demo-report.md, out/demo-msal.json, out/azure/ (report in out/azure-report.md)"
