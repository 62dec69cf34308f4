#!/usr/bin/env bash
# Restore time and journal size, the whole log against snapshots, for 1, 10 and 100 rooms after 10k,
# 100k and 1M records, and one Matchismo room of 40k flips. Builds journal-bench in release and writes
# BENCHMARKS-journal.md (or the file given as $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-BENCHMARKS-journal.md}"
swift build -c release --product journal-bench >/dev/null
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    echo "# Journal restore"
    echo
    echo "Measured by \`scripts/journal-bench.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, on $(nproc) cores."
    echo "Rooms are played through the in-memory server (two players a room taking sets, chatting and"
    echo "starting new games) until the journal holds the number of records. *Log* is every record since the"
    echo "start, as each start replayed before snapshots; *snapshot* is the compacted journal (one snapshot a"
    echo "room plus the archive), which setd writes at every start and every 20,000 records, so a journal"
    echo "never holds more than that many changes after its snapshots. Restore = reading the bytes into records"
    echo "and replaying them into a fresh core; median of 3."
    echo
    .build/release/journal-bench
} >"$out"
cat "$out"
