#!/bin/sh
# Set up puzzleplan in ./.venv.
#   sh setup.sh        the package and what it needs to run
#   sh setup.sh test   also the test tools and the external SAT solvers the tests run:
#                      Debian's cadical, minisat, cryptominisat and picosat, and the model
#                      checker berkeley-abc (needs root and apt-get); kissat comes from PyPI (the passagemath-kissat wheel), and so do
#                      the PDDL planners Fast Downward and SymK (up-fast-downward, up-symk); Debian's
#                      chromium and chromium-driver for the browser test of the HTML player.
#   sh setup.sh docs   the package and the documentation tools (MkDocs, Material, mkdocstrings,
#                      mkdocs-click), then the site built into ./site (how to serve it is printed)
set -e
cd "$(dirname "$0")"
if [ "${1:-}" = "test" ]; then
    missing=""
    for prog in cadical minisat cryptominisat5 picosat berkeley-abc; do
        command -v "$prog" >/dev/null 2>&1 || missing="$missing $prog"
    done
    if [ -n "$missing" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "setup: installing external SAT solvers:$missing" >&2
            apt-get update -qq >/dev/null
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cadical minisat cryptominisat picosat berkeley-abc >/dev/null
        else
            echo "setup: cannot install$missing (needs root and apt-get); the tests that run them will fail" >&2
        fi
    fi
    if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "setup: installing chromium and chromium-driver (browser test)" >&2
            apt-get update -qq >/dev/null
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
        else
            echo "setup: cannot install chromium and chromium-driver (needs root and apt-get); the browser test is skipped (it fails under CI=true)" >&2
        fi
    fi
    extras="[test]"
elif [ "${1:-}" = "docs" ]; then
    extras="[docs]"
else
    extras=""
fi
python3 -m venv .venv
.venv/bin/pip install -q -e ".$extras"
if [ "${1:-}" = "docs" ]; then
    NO_MKDOCS_2_WARNING=1 .venv/bin/python -m mkdocs build --strict -q -d site
    echo "setup: the site is built in site/; serve it with  .venv/bin/mkdocs serve  (then open http://127.0.0.1:8000/)," >&2
    echo "setup: or serve the built folder:  .venv/bin/python -m http.server -d site 8000" >&2
fi
