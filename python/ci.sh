#!/usr/bin/env bash
# The Python package as a user gets it: the README's install line in a fresh venv, then the
# pytest suite with every extra required (a missing checker fails instead of skipping).
# Called by .ci/run; runs alone too: python/ci.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

install_line=$(sed -n 's/^    \(pip install .*\)$/\1/p' "$repo/README.md" | head -n 1)
if [ -z "$install_line" ]; then
    echo "README.md has no indented 'pip install' line" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# shellcheck disable=SC1091
. "$work/venv/bin/activate"
python -m pip install --quiet --upgrade pip
cd "$repo"
# The engine crate and its dependencies build as `cargo build --release` builds them (the
# binding crate keeps the default release profile), so CI reuses the root's artifacts.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
echo "+ $install_line"
eval "$install_line"
python -m pip install --quiet pytest

# From outside the source tree, so that `import tuzdik` finds the installed package.
cd "$work"
status=0
TUZDIK_REQUIRE_EXTRAS=1 python -m pytest -q -p no:cacheprovider -rs "$repo/python/tests" || status=$?
case $status in
    0) ;;
    5) echo "pytest collected no tests" >&2; exit 1 ;;
    *) echo "pytest failed (exit $status)" >&2; exit "$status" ;;
esac
