#!/usr/bin/env bash
# Installs what a fresh Debian machine with the Swift toolchain lacks to build adal2msal: the C libraries we
# link (libxml2, SQLite). With --test-oracles, also what only the tests use: the sqlite3 shell (the fault tests
# use it as a second process holding the store's lock), the real MSAL Python library, an independent reader of
# our output, and the real Azure CLI core (azure-cli-core, which pins msal==1.39.0 on Linux), the consumer of
# `migrate --azure-cli-dir`. The demo needs only the first part, so it does not download the oracles.
# Safe to run repeatedly; does nothing when everything is present.
set -euo pipefail

oracles=false
case "${1-}" in
  "") ;;
  --test-oracles) oracles=true ;;
  *) echo "usage: bash scripts/bootstrap.sh [--test-oracles]" >&2; exit 64 ;;
esac

packages=(libxml2-dev libsqlite3-dev pkgconf python3)
if $oracles; then packages+=(sqlite3 python3-venv); fi

need_apt=()
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if ((${#need_apt[@]})); then
  echo "bootstrap: installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

$oracles || exit 0

# The MSAL Python oracle lives in its own virtual environment inside the checkout (ignored by git).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-oracle"
if ! "$venv/bin/python" -c 'import msal, adal, azure.cli.core' >/dev/null 2>&1; then
  echo "bootstrap: installing MSAL Python and Azure CLI core (test oracles) into .venv-oracle"
  python3 -m venv "$venv" 2>/dev/null || { rm -rf "$venv"; python3 -m venv --without-pip "$venv"; }
  if [ -x "$venv/bin/pip" ]; then
    "$venv/bin/pip" install -q 'msal==1.39.0' 'bpylist2==4.1.1' 'adal==1.2.7' 'azure-cli-core==2.91.0'
  else
    python3 -m pip install -q --target "$venv/lib/site" 'msal==1.39.0' 'bpylist2==4.1.1' 'adal==1.2.7' 'azure-cli-core==2.91.0'
  fi
fi
