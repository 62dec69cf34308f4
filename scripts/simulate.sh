#!/usr/bin/env bash
# The deterministic simulation of the whole server under faults (SetSimulation, `set-sim`).
#
#   scripts/simulate.sh [SEEDS] [--from S] [--events N] [--clients N] [--check-every N]
#   scripts/simulate.sh --seed S [--events N] [--clients N]
#
# The first form runs SEEDS seeds (default 100) from S (default 1) and ends with `N passed, M failed`
# (exit status 1 if any failed); a failure prints its seed and its events shrunk to few. The second prints
# seed S's trace, the same bytes on every run (no timings: those go to standard error), so two runs can
# be compared with cmp. Builds set-sim in release first.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product set-sim >&2
# The simulation must not depend on hash order; its traces do not either, but with this they cannot.
export SWIFT_DETERMINISTIC_HASHING=1
exec .build/release/set-sim "$@"
