#!/usr/bin/env bash
# Regenerates the shell completion scripts and the man page from the ArgumentParser definitions, into
# docs/completions/ and docs/man/. Run after changing a subcommand's options or help; the end-to-end tests
# check that the committed completion scripts match the binary.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build --product adal2msal
bin="$(swift build --show-bin-path)/adal2msal"
mkdir -p docs/completions docs/man
"$bin" --generate-completion-script bash > docs/completions/adal2msal.bash
"$bin" --generate-completion-script zsh > docs/completions/_adal2msal
"$bin" --generate-completion-script fish > docs/completions/adal2msal.fish
# The man page comes from swift-argument-parser's generate-manual tool (what its plugin runs), on the debug build.
swift build --product generate-manual
"$(swift build --show-bin-path)/generate-manual" "$bin" --date "$(date -u +%Y-%m-%d)" \
  --authors "adal2msal developers" --output-directory docs/man
ls docs/completions docs/man
