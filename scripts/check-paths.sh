#!/usr/bin/env bash
# Fails when two tracked paths (files or the folders that hold them) differ only in case: such a checkout breaks
# on a Mac's default, case-insensitive file system, where our users build. Run by scripts/test.sh, so by CI too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
twins="$( { git ls-files; git ls-files | xargs -n1 dirname | sort -u; } | sort -u | awk '
  { key = tolower($0); names[key] = names[key] ? names[key] "  " $0 : $0; count[key]++ }
  END { for (key in count) if (count[key] > 1) print "  " names[key] }')"
if [ -n "$twins" ]; then
  printf 'check-paths: paths that differ only in case (they collide on a case-insensitive file system):\n%s\n' \
    "$twins" >&2
  exit 1
fi
echo "check-paths: no two paths differ only in case"
