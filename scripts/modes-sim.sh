#!/bin/sh
# Deals and plays every SET mode many times in a release build (modes-sim): how often a deal has no
# claim, how long a game lasts, and the rules' promises checked on every deal (a claim while the deck has
# cards, boards within each mode's largest, and on a sample of boards the claims counted by brute force).
# Fails if a promise fails. The figures in BENCHMARKS-modes.md came from the defaults:
#
#   scripts/modes-sim.sh [--deals 1000000] [--games 100000] [--modes normal,ultra9,...] [--check-every 97]
#   scripts/modes-sim.sh --largest-claim-free set,ultra,ghost,4setjr,4set
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product modes-sim >/dev/null
exec .build/release/modes-sim "$@"
