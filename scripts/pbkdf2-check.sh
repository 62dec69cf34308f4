#!/usr/bin/env bash
# RFC 6070's longest PBKDF2-HMAC-SHA1 vector (16,777,216 iterations: about 10 s in a release build, too
# slow for the unit tests, which check the others), then what one stored key costs at setd's 10,000
# iterations on this machine (the figure protocol.md quotes). Exit status 1 if the vector is wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product journal-bench >/dev/null
.build/release/journal-bench --pbkdf2-check
.build/release/journal-bench --key-hash 10000
