#!/bin/sh
# Times the SetGame core (SetRules.allSets, containsSet, a whole simulated game) in a release build.
# Goals: allSets on 12 cards under 1 µs, a whole game under 1 ms.
set -eu
cd "$(dirname "$0")/.."
exec swift run -c release game-bench "$@"
