#!/usr/bin/env bash
# The committed type stubs (python/tenferro/_tenferro/*.pyi) must be what nanobind's stubgen
# writes for the built module: they are derived from the bindings (which loop over the op
# lists), so a binding changed without regenerating them is a stale public interface.
#
#   scripts/check-stubs.sh [VENV]            # fails (exit 1, with the diff) when they differ
#   scripts/check-stubs.sh --write [VENV]    # regenerates them in place
#
# VENV (default build-python/venv-test, the one scripts/test-python.sh installs the package
# into) must have tenferro installed. stubgen comes from the nanobind version pinned in
# pyproject.toml, the one the module is built with: another version words stubs differently.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
write=0
if [[ ${1:-} == --write ]]; then write=1; shift; fi
venv=${1:-$root/build-python/venv-test}
pin=$(grep -oE 'nanobind==[0-9][0-9.]*' pyproject.toml | head -n1)
[[ -n $pin ]] || { echo "stubs: pyproject.toml pins no nanobind version"; exit 1; }
"$venv/bin/pip" install --quiet --disable-pip-version-check "$pin" ||
  { echo "stubs: installing $pin failed"; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Run from an empty folder, so the module imported is the installed one, not the source tree.
(cd "$out" && "$venv/bin/python" -m nanobind.stubgen -q -m tenferro._tenferro -r -O "$out/gen") ||
  { echo "stubs: nanobind.stubgen failed"; exit 1; }

committed=$root/python/tenferro/_tenferro
if ((write)); then
  cp "$out"/gen/_tenferro/*.pyi "$committed"/
  echo "stubs: regenerated $committed"
  exit 0
fi
if ! diff -ru "$committed" "$out/gen/_tenferro"; then
  echo "stubs: python/tenferro/_tenferro/*.pyi are stale; regenerate them with scripts/check-stubs.sh --write"
  exit 1
fi
echo "stubs: python/tenferro/_tenferro/*.pyi match the built module"
