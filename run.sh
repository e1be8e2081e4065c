#!/bin/sh
# BPE Explorer: set up (only what is missing) and run.
#
#   sh run.sh app  [streamlit args]   start the app on http://localhost:8501
#   sh run.sh test [pytest args]      run every test, real-browser tests included
#
# Both commands are idempotent.  The virtual environment lives in .venv and is
# reused; packages are (re)installed only when a requirements*.txt file changed
# (the hash is kept in .venv/.requirements.sha256).  `test` also makes sure a
# Chromium for Playwright exists: `chromium`/`chromium-browser` from PATH, else
# (as root on Debian/Ubuntu) apt-get's `chromium`, else Playwright's own download; and a PostgreSQL
# server for the shared-store tests (as root on Debian/Ubuntu: apt-get's `postgresql`) and nginx for the tests of
# several app servers behind a proxy (apt-get's `nginx`, its own service left stopped), and `systemd-analyze` for the
# service units' test (apt-get's `systemd`).
#
# Environment: PYTHON=/path/to/python3 picks the interpreter used for .venv
# (default: the newest Python >= 3.10 among python3, python3.N and python on PATH).
# Python 3.10 gets the older pins marked `python_version < "3.11"` in requirements*.txt.
set -eu

cd "$(dirname "$0")"
ROOT=$(pwd)
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
STAMP="$VENV/.requirements.sha256"
LOCK="$ROOT/.run.sh.lock"

log() { printf 'run.sh: %s\n' "$*" >&2; }
die() { printf 'run.sh: error: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
is_root() { [ "$(id -u)" = 0 ]; }
is_apt_system() { have apt-get && [ -f /etc/debian_version ]; }

usage() {
    cat >&2 <<'EOF'
usage: sh run.sh app  [streamlit args]   set up and start the app (http://localhost:8501)
       sh run.sh test [pytest args]      set up and run every test (browser tests included)
EOF
    exit 2
}

# --- apt (root on Debian/Ubuntu only) -----------------------------------------
APT_UPDATED=
apt_install() {
    if [ -z "$APT_UPDATED" ]; then
        log "apt-get update"
        DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 || return 1
        APT_UPDATED=1
    fi
    log "apt-get install -y $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2
}

TEMP_POLICY=

# --- one setup at a time (several developers share this working tree) ----------
release_lock() {
    if [ -n "$TEMP_POLICY" ]; then rm -f /usr/sbin/policy-rc.d; TEMP_POLICY=; fi  # see ensure_nginx
    rm -rf "$LOCK"
}
acquire_lock() {
    waited=0
    while ! mkdir "$LOCK" 2>/dev/null; do
        holder=$(cat "$LOCK/pid" 2>/dev/null || true)
        if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
            log "removing stale lock left by process $holder"
            rm -rf "$LOCK"
            continue
        fi
        [ "$waited" -eq 0 ] && log "another run.sh is setting up (pid ${holder:-?}); waiting"
        waited=$((waited + 1))
        [ "$waited" -le 900 ] || die "still locked after 15 minutes: $LOCK (remove it if no run.sh is running)"
        sleep 1
    done
    echo $$ >"$LOCK/pid"
    trap release_lock EXIT
    trap 'release_lock; exit 130' INT
    trap 'release_lock; exit 143' TERM
}

# --- Python and the virtual environment ---------------------------------------
# Python >= 3.10.  requirements*.txt pin the newest releases (streamlit==1.67.0,
# pandas==3.1.1, ... need >= 3.11) and, through `python_version < "3.11"` markers,
# the newest releases that still support 3.10.
PY_MIN=3.10  # keep in step with the (3, 10) in py_version

# Prints "MAJOR MINOR" of interpreter $1 if it runs and is >= PY_MIN; fails otherwise.
py_version() {
    "$1" -c 'import sys; v = sys.version_info; sys.exit(1) if v < (3, 10) else print(v[0], v[1])' 2>/dev/null
}

py_ok() {
    py_version "$1" >/dev/null
}

# The newest Python >= PY_MIN on PATH (pyenv shims of inactive versions fail to run
# and are skipped).
find_python() {
    best=
    best_key=-1
    for c in python3 python3.20 python3.19 python3.18 python3.17 python3.16 python3.15 \
        python3.14 python3.13 python3.12 python3.11 python3.10 python; do
        have "$c" || continue
        v=$(py_version "$c") || continue
        key=$(( ${v% *} * 1000 + ${v#* } ))
        if [ "$key" -gt "$best_key" ]; then
            best=$(command -v "$c")
            best_key=$key
        fi
    done
    [ -n "$best" ] && echo "$best"
}

venv_ok() {
    [ -x "$PY" ] && py_ok "$PY" && "$PY" -c 'import pip' >/dev/null 2>&1 || return 1
    # An explicit PYTHON of another version than .venv's: rebuild .venv with it.
    if [ -n "${PYTHON:-}" ] && [ "$(py_version "$PY")" != "$(py_version "$PYTHON" || true)" ]; then
        log ".venv uses Python $(py_version "$PY" | tr ' ' .), PYTHON=$PYTHON does not; recreating .venv"
        return 1
    fi
}

create_venv() {
    if [ -n "${PYTHON:-}" ]; then
        py_ok "$PYTHON" || die "PYTHON=$PYTHON is not a Python >= $PY_MIN"
        py=$PYTHON
    elif ! py=$(find_python); then
        if is_root && is_apt_system; then
            log "no Python >= $PY_MIN found; installing python3 and python3-venv with apt-get"
            apt_install python3 python3-venv || true
            py=$(find_python) || {
                log "the distribution's python3 is older than $PY_MIN; trying python3.11 from apt-get"
                apt_install python3.11 python3.11-venv || true
            }
        fi
        py=$(find_python) || die "Python >= $PY_MIN is required; found: $(python3 -V 2>&1 || echo 'no python3'). Install python3.10 (or newer) and re-run, or set PYTHON=/path/to/python3.x."
    fi
    log "creating .venv with $py ($("$py" -V 2>&1))"
    rm -rf "$VENV"
    if "$py" -m venv "$VENV"; then
        return 0
    fi
    rm -rf "$VENV"
    # Debian/Ubuntu ship venv/ensurepip separately from python3.
    is_root && is_apt_system || die "'$py -m venv' failed; install the venv module (Debian/Ubuntu: apt-get install python3-venv) and re-run"
    ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    apt_install python3-venv || true
    if ! "$py" -m venv "$VENV"; then
        rm -rf "$VENV"
        apt_install "python$ver-venv" || die "could not install python3-venv / python$ver-venv"
        "$py" -m venv "$VENV" || { rm -rf "$VENV"; die "'$py -m venv' still fails"; }
    fi
}

requirements_hash() {
    "$PY" - <<'EOF'
import glob, hashlib, sys
h = hashlib.sha256(sys.version.encode())
for name in sorted(glob.glob("requirements*.txt")):
    h.update(name.encode() + b"\0")
    with open(name, "rb") as f:
        h.update(f.read() + b"\0")
print(h.hexdigest())
EOF
}

# $1 = app (requirements.txt) or dev (requirements-dev.txt, which includes the app's)
ensure_venv() {
    level=$1
    venv_ok || create_venv
    want=$(requirements_hash)
    have_stamp=$(cat "$STAMP" 2>/dev/null || true)
    case "$level:$have_stamp" in
        "app:$want app" | "app:$want dev" | "dev:$want dev") return 0 ;;
    esac
    if [ "$level" = dev ]; then req=requirements-dev.txt; else req=requirements.txt; fi
    log "installing $req into .venv (requirements changed or first run)"
    "$PY" -m pip install --disable-pip-version-check -q -r "$req" >&2 ||
        die "pip install -r $req failed"
    echo "$want $level" >"$STAMP.tmp" && mv "$STAMP.tmp" "$STAMP"
}

# --- Chromium for the real-browser tests --------------------------------------
find_chromium() {
    for c in chromium chromium-browser; do
        p=$(command -v "$c" 2>/dev/null) || continue
        # Ubuntu's chromium-browser can be a stub that only asks for the snap.
        if "$p" --version >/dev/null 2>&1; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

fonts_ok() {
    have fc-list || return 1
    families=$(fc-list : family 2>/dev/null)
    printf '%s\n' "$families" | grep -qi 'Noto Sans CJK' &&
        printf '%s\n' "$families" | grep -qi 'Noto Color Emoji' &&
        printf '%s\n' "$families" | grep -qi 'Noto Sans Thai' &&
        printf '%s\n' "$families" | grep -qi 'Noto Sans Devanagari'
}

# CJK, emoji, and (fonts-noto-core) Thai, Devanagari, Bengali, Arabic, Hebrew and the rest of the
# Declaration's scripts: screenshots and the PNG/GIF pictures draw them instead of boxes.
FONTS="fonts-noto-cjk fonts-noto-color-emoji fonts-noto-core"

# Pillow shapes Thai, Devanagari and Arabic (marks on their letters, joined right-to-left letters) with
# libraqm; its wheels bundle it, a Pillow built without it needs Debian's libraqm0.
ensure_raqm() {
    "$PY" -c "from PIL import features; raise SystemExit(0 if features.check('raqm') else 1)" 2>/dev/null && return 0
    if is_root && is_apt_system; then
        apt_install libraqm0 || log "apt-get could not install libraqm0"
    fi
    "$PY" -c "from PIL import features; raise SystemExit(0 if features.check('raqm') else 1)" 2>/dev/null ||
        log "warning: Pillow has no complex text layout (libraqm); Thai, Hindi and Arabic in pictures will be unshaped"
}

ensure_browser() {
    chromium=$(find_chromium || true)
    fonts=yes
    fonts_ok || fonts=
    if is_root && is_apt_system; then
        if [ -z "$chromium" ]; then
            # shellcheck disable=SC2086
            apt_install chromium $FONTS || log "apt-get could not install chromium"
            chromium=$(find_chromium || true)
            fonts_ok && fonts=yes
        fi
        if [ -z "$fonts" ]; then
            # shellcheck disable=SC2086
            apt_install $FONTS || log "apt-get could not install $FONTS"
            fonts_ok && fonts=yes
        fi
    fi
    [ -n "$fonts" ] || log "warning: Noto CJK / Noto Color Emoji / Noto (core) fonts not found; CJK, emoji, Thai and Hindi will render as boxes in screenshots"
    ensure_raqm
    if [ -n "$chromium" ]; then
        BPE_CHROMIUM=$chromium
        export BPE_CHROMIUM
        return 0
    fi
    log "no system Chromium; falling back to 'python -m playwright install chromium'"
    if is_root && is_apt_system; then
        "$PY" -m playwright install --with-deps chromium >&2 || die "could not install a Chromium for Playwright"
    else
        "$PY" -m playwright install chromium >&2 || die "could not install a Chromium for Playwright (install 'chromium' with your package manager and re-run)"
    fi
}

# --- PostgreSQL for the shared-store tests ------------------------------------------
# The tests start their own throwaway cluster with initdb/pg_ctl, which Debian keeps off PATH in
# /usr/lib/postgresql/<version>/bin; only the server package is needed, no running service.
postgres_ok() {
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { have initdb && have pg_ctl; }
}

ensure_postgres() {
    postgres_ok && return 0
    if is_root && is_apt_system; then
        apt_install postgresql || log "apt-get could not install postgresql"
    fi
    postgres_ok || log "warning: no PostgreSQL server (initdb/pg_ctl) found; the shared-store tests will fail (Debian/Ubuntu: apt-get install postgresql)"
}

# --- nginx for the tests of several app servers behind a proxy ------------------------------
# The tests run their own nginx (the repository's config, a free port, a temporary prefix: tests/nginx_server.py);
# the distribution's nginx service plays no part. Installing the package would start that service on port 80 (and
# fail the install if something else holds the port), so while apt-get runs, a policy-rc.d answers 101 ("action
# forbidden", the documented way to keep a package's service from starting) unless one is there already; it is
# removed again at once (or by release_lock if run.sh is interrupted).
nginx_ok() {
    have nginx || [ -x /usr/sbin/nginx ]
}

ensure_nginx() {
    nginx_ok && return 0
    if is_root && is_apt_system; then
        if [ ! -e /usr/sbin/policy-rc.d ]; then
            printf '#!/bin/sh\n# run.sh: no service starts while apt-get installs nginx\nexit 101\n' >/usr/sbin/policy-rc.d
            chmod 755 /usr/sbin/policy-rc.d
            TEMP_POLICY=1
        fi
        apt_install nginx || log "apt-get could not install nginx"
        if [ -n "$TEMP_POLICY" ]; then rm -f /usr/sbin/policy-rc.d; TEMP_POLICY=; fi
    fi
    nginx_ok || log "warning: no nginx found; the tests of app servers behind a proxy will fail (Debian/Ubuntu: apt-get install nginx)"
}

# --- systemd-analyze for the test of the service units (deploy/systemd/) ---------------------------------------
# `systemd-analyze verify` checks the units without a running systemd (a container's PID 1 is not systemd); Debian
# ships it in the `systemd` package. Installing it starts nothing.
ensure_systemd_analyze() {
    have systemd-analyze && return 0
    if is_root && is_apt_system; then
        apt_install systemd || log "apt-get could not install systemd"
    fi
    have systemd-analyze || log "warning: no systemd-analyze found; the test of the service units will fail (Debian/Ubuntu: apt-get install systemd)"
}

# --- commands -------------------------------------------------------------------
[ $# -ge 1 ] || usage
cmd=$1
shift

case "$cmd" in
    app)
        acquire_lock
        ensure_venv app
        release_lock
        trap - EXIT INT TERM
        # The port Streamlit will use: --server.port N (or =N) among the arguments, else STREAMLIT_SERVER_PORT (how
        # the systemd units in deploy/ give it), else Streamlit's 8501; the last --server.port wins, as in Streamlit.
        port=${STREAMLIT_SERVER_PORT:-8501}
        prev=
        for arg in "$@"; do
            case "$arg" in
                --server.port=*) port=${arg#--server.port=} ;;
            esac
            [ "$prev" = --server.port ] && port=$arg
            prev=$arg
        done
        log "starting BPE Explorer on http://localhost:$port (Ctrl-C to stop)"
        # glibc's malloc gives each thread that allocates its own arena, and Streamlit runs every session's script
        # in a thread of its own: after a class of 40 the server kept 9 % more memory than before it with the
        # default (up to 16 arenas on 2 cores), 5 % with two (benchmarks/class_load.py). A setting already made wins.
        export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
        # serve.py: app.py's pages plus the live class's poll endpoint (bpe_server/class_poll.py).
        exec "$PY" -m streamlit run serve.py \
            --server.showEmailPrompt false \
            --browser.gatherUsageStats false \
            "$@"
        ;;
    test)
        acquire_lock
        ensure_venv dev
        ensure_browser
        ensure_postgres
        ensure_nginx
        ensure_systemd_analyze
        release_lock
        trap - EXIT INT TERM
        # Lint first (configured in pyproject.toml): a style slip fails the run like a test.
        log "ruff check + ruff format --check"
        "$PY" -m ruff check . || die "ruff check found problems (fix them, or run: $PY -m ruff check --fix .)"
        "$PY" -m ruff format --check . || die "ruff format would change files (run: $PY -m ruff format .)"
        set +e
        "$PY" -m pytest "$@"
        rc=$?
        set -e
        if [ "$rc" -eq 5 ]; then
            log "error: pytest collected no tests (exit code 5); that counts as a failure"
        fi
        exit "$rc"
        ;;
    -h | --help | help) usage ;;
    *)
        log "unknown command: $cmd"
        usage
        ;;
esac
