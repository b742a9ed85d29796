#!/usr/bin/env bash
# The project's one test command (README "Test"): formatting, lints, every test of every crate,
# the front-end checks (tsc, ESLint, the views' types), then the browser tests. Every step runs even when an earlier one failed, so one failure does
# not hide another; the script fails at the end if any step did. It installs what the tests
# need when it is missing, so it works on a fresh machine.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
step() {
  local name=$1
  shift
  echo "== $name"
  if ! "$@"; then
    failed+=("$name")
    echo "== $name: FAILED"
  fi
}

# Installs a Debian package that provides the command $1 when the command is missing.
needs() {
  local command=$1 package=$2
  command -v "$command" >/dev/null 2>&1 && return 0
  echo "Installing $package (Debian package) for the tests..."
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq || return 1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null
}

# e2e's npm packages (playwright-core, TypeScript, ESLint), installed once for the steps that
# use them.
e2e_installed=""
e2e_packages() {
  [ -n "$e2e_installed" ] && return 0
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error) || return 1
  e2e_installed=1
}

rust_tests() {
  # The views pages receive are written again by these tests (crates/server/tests/it/samples.rs)
  # for the front-end checks: none is left from an earlier run.
  rm -rf "${CARGO_TARGET_DIR:-target}/view-samples"
  # crates/prophecy/tests/it/proxy.rs runs servers behind Debian's Caddy. Without it that test
  # fails saying so, and the others still run.
  needs caddy caddy
  # --no-fail-fast: every crate's tests run even when one crate's fail.
  cargo test --workspace --locked --no-fail-fast
}

frontend_checks() {
  # The pages' JavaScript type-checked (tsc, JSDoc types) and linted (ESLint), and the views'
  # hand-written types checked against the views the Rust tests kept (e2e/package.json: check).
  e2e_packages || return 1
  local status=0
  npm --prefix e2e run --silent check:types || status=1
  npm --prefix e2e run --silent check:lint || status=1
  npm --prefix e2e run --silent check:views || status=1
  return $status
}

browser_tests() {
  # Debian's Chromium, driven by playwright-core (which downloads no browser).
  needs chromium chromium || return 1
  # board-stacked.test.mjs stacks a stopped server's decks in its SQLite file.
  needs sqlite3 sqlite3 || return 1
  e2e_packages || return 1
  cargo build -p prophecy --locked || return 1
  PROPHECY_BIN="$PWD/target/debug/prophecy" npm --prefix e2e test
}

postgres_ready() {
  # The PostgreSQL tests use PROPHECY_TEST_POSTGRES, by default this machine's server on
  # 127.0.0.1:5432 as postgres (each test in a database of its own), and psql. Start this
  # machine's server if it is the one and has stopped.
  needs psql postgresql-client || return 1
  local server="${PROPHECY_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432/postgres}"
  pg_isready -q -d "$server" && return 0
  if [ -z "${PROPHECY_TEST_POSTGRES:-}" ] && command -v pg_ctlcluster >/dev/null 2>&1; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
  fi
  for _ in $(seq 20); do
    pg_isready -q -d "$server" && return 0
    sleep 0.5
  done
  echo "PostgreSQL does not answer at $server"
  return 1
}

step "PostgreSQL for the store's tests" postgres_ready
step "formatting (cargo fmt --check)" cargo fmt --all --check
step "lints (cargo clippy)" cargo clippy --workspace --all-targets --locked -- -D warnings
step "Rust tests (cargo test)" rust_tests
step "front-end checks (tsc, ESLint)" frontend_checks
step "browser tests (e2e)" browser_tests

if [ ${#failed[@]} -gt 0 ]; then
  echo
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo
echo "All steps passed: PostgreSQL, formatting, lints, Rust tests, front-end checks, browser tests."
