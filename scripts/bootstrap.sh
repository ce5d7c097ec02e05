#!/usr/bin/env bash
# Installs what a fresh Debian machine with the Swift toolchain lacks to build adal2msal: the C libraries we
# link (libxml2, SQLite), and patchelf, with which the release build leaves libxml2 to be loaded when XML is read
# (scripts/release/build.sh). With --test-oracles, also what only the tests use: the sqlite3 shell (the fault tests
# use it as a second process holding the store's lock), the real MSAL Python library, an independent reader of
# our output, and the real Azure CLI core (azure-cli-core, which pins msal==1.39.0 on Linux), the consumer of
# `migrate --azure-cli-dir`, and the real MSAL.NET on Mono (see below). The demo needs only the first part, so it
# does not download the oracles.
# Safe to run repeatedly; does nothing when everything is present.
set -euo pipefail

oracles=false
case "${1-}" in
  "") ;;
  --test-oracles) oracles=true ;;
  *) echo "usage: bash scripts/bootstrap.sh [--test-oracles]" >&2; exit 64 ;;
esac

packages=(libxml2-dev libsqlite3-dev pkgconf python3 patchelf)
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

# MSAL.NET (Microsoft.Identity.Client 4.83.3, its netstandard2.0 build) runs on Debian's Mono: mono-devel brings
# the runtime, the C# compiler and the netstandard facades. NuGet is out of reach here, so the assemblies come
# from PyPI packages that ship them: semantic-link-sempy carries MSAL.NET and its abstractions; its
# System.Diagnostics.DiagnosticSource is a .NET 6 build that Mono cannot load, so that one and what it needs
# (System.Memory, System.Buffers, System.Runtime.CompilerServices.Unsafe, System.Numerics.Vectors) come as
# .NET Framework builds from opclabs_mqttnet. Only those seven files are kept, in .msalnet-oracle/lib (ignored
# by git); Tests/_Adal2MSALTestSupport/MSALNetOracle.swift compiles scripts/oracle/msalnet_oracle.cs against them.
if ! dpkg -s mono-devel >/dev/null 2>&1; then
  echo "bootstrap: installing Mono (MSAL.NET test oracle)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends mono-devel >/dev/null
fi
lib="$root/.msalnet-oracle/lib"
msal_dlls=(Microsoft.Identity.Client.dll Microsoft.IdentityModel.Abstractions.dll)
framework_dlls=(System.Diagnostics.DiagnosticSource.dll System.Memory.dll System.Buffers.dll
  System.Runtime.CompilerServices.Unsafe.dll System.Numerics.Vectors.dll)
missing=false
for dll in "${msal_dlls[@]}" "${framework_dlls[@]}"; do [ -f "$lib/$dll" ] || missing=true; done
if $missing; then
  echo "bootstrap: installing MSAL.NET 4.83.3 and its .NET Framework dependencies into .msalnet-oracle/lib"
  download="$(mktemp -d)"
  trap 'rm -rf "$download"' EXIT
  "$venv/bin/python" -m pip download -q --no-deps -d "$download" 'semantic-link-sempy==0.14.3' 'opclabs_mqttnet==5.84.434'
  mkdir -p "$download/sempy" "$download/opc"
  "$venv/bin/python" - "$download" "${msal_dlls[@]}" <<'PY'
import sys, zipfile, glob, os
download, names = sys.argv[1], sys.argv[2:]
wheel = glob.glob(os.path.join(download, "semantic_link_sempy-*.whl"))[0]
with zipfile.ZipFile(wheel) as archive:
    for name in names:
        with open(os.path.join(download, "sempy", name), "wb") as out:
            out.write(archive.read("sempy/lib/" + name))
PY
  tar -xzf "$download"/opclabs_mqttnet-*.tar.gz -C "$download/opc" --strip-components=4 \
    $(printf 'opclabs_mqttnet-5.84.434/opclabs_mqttnet/OpcLabs.MqttNet/net472/%s ' "${framework_dlls[@]}")
  mkdir -p "$lib"
  for dll in "${msal_dlls[@]}"; do cp "$download/sempy/$dll" "$lib/"; done
  for dll in "${framework_dlls[@]}"; do cp "$download/opc/$dll" "$lib/"; done
fi
