#!/usr/bin/env bash
# One entry point for a fresh machine: sets up what is missing, then does the job.
#   ./run.sh app    -> start the Streamlit explorer (http://localhost:8501)
#   ./run.sh test   -> run the whole test suite (what CI runs)
#   ./run.sh setup  -> only the setup (venv, Python packages, WordNet, the compiled accelerator,
#                      Java and Chromium for tests)
set -euo pipefail
cd "$(dirname "$0")"

VENV=${METEOR_VENV:-.venv}
PY="$VENV/bin/python"

setup_python() {
  if [ ! -x "$PY" ]; then
    python3 -m venv "$VENV"
  fi
  # Reinstall only when requirements.txt changed since the last successful install.
  local want have
  want=$(sha256sum requirements.txt | cut -d' ' -f1)
  have=$(cat "$VENV/.requirements-sha" 2>/dev/null || true)
  if [ "$want" != "$have" ]; then
    "$PY" -m pip install --quiet --disable-pip-version-check -r requirements.txt
    echo "$want" > "$VENV/.requirements-sha"
  fi
}

setup_wordnet() {
  "$PY" -m meteor_core setup
}

setup_accel() {
  # The optional compiled accelerator (Cython, from the same .py sources); skipped when up to date,
  # and pure Python runs if it cannot be built.
  "$PY" build_accel.py
}

setup_java() {
  # Java runs the real Meteor 1.5 jar in the tests that compare meteor15 with it (scoring never needs it).
  if ! command -v java >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "[setup] installing Debian's Java runtime for the tests that compare with the Meteor 1.5 jar" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get install -y -qq default-jre-headless >/dev/null || { apt-get update -qq && apt-get install -y -qq default-jre-headless >/dev/null; }
    else
      echo "[setup] java missing and cannot be installed here: the comparisons with the jar will be skipped" >&2
    fi
  fi
}

setup_browser() {
  # The real-browser tests drive Debian's Chromium (Playwright's own download cannot work here).
  if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "[setup] installing Debian's chromium for the browser tests" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get install -y -qq chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
    else
      echo "[setup] chromium missing and cannot be installed here: browser tests will be skipped" >&2
    fi
  fi
}

cmd=${1:-app}
shift || true
case "$cmd" in
  setup)
    setup_python; setup_wordnet; setup_accel; setup_java; setup_browser ;;
  app)
    setup_python; setup_wordnet; setup_accel
    # Small objects from the C allocator, which gives freed memory back (see meteor_core/cli/app.py);
    # serve.py is `streamlit run` with the pages' libraries imported before the first visitor.
    PYTHONMALLOC=${PYTHONMALLOC:-malloc} exec "$PY" serve.py run app.py --server.headless true \
      --browser.gatherUsageStats false "$@" ;;
  test)
    setup_python; setup_wordnet; setup_accel; setup_java; setup_browser
    # As root the setup can install Chromium and Java (and gcc is there), so a missing browser, Java
    # or compiled accelerator is a failure, not a skip.
    if [ "$(id -u)" = 0 ]; then
      export METEOR_REQUIRE_BROWSER=${METEOR_REQUIRE_BROWSER:-1} METEOR_REQUIRE_ACCEL=${METEOR_REQUIRE_ACCEL:-1}
      export METEOR_REQUIRE_JAVA=${METEOR_REQUIRE_JAVA:-1}
    fi
    exec "$PY" -m pytest "$@" ;;
  *)
    echo "usage: ./run.sh [app|test|setup] [extra args]" >&2; exit 2 ;;
esac
