#!/usr/bin/env bash
# The project's one test command (README "Test"): formatting, lints, then every test of every
# crate. It installs what the tests need when it is missing, so it works on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked

# The browser tests: Debian's Chromium, driven by playwright-core (which downloads no browser).
if ! command -v chromium >/dev/null 2>&1; then
  echo "Installing Chromium (Debian package) for the browser tests..."
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
(cd e2e && npm ci --no-audit --no-fund --loglevel=error)
cargo build -p prophecy --locked
PROPHECY_BIN="$PWD/target/debug/prophecy" npm --prefix e2e test
