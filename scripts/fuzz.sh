#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs them for a while.
#
#   scripts/fuzz.sh [protocol|game|journal|http|websocket|all] [SECONDS]      (default: all, 60 seconds each)
#
# Each target is compiled straight from Fuzz/*.swift, the library sources (SetProtocol, SetGame, SetWeb) and the
# reference oracles it checks against (Sources/SetTestSupport, shared with the tests) with
# -sanitize=fuzzer,address into .build-fuzz/ (not through SwiftPM: libFuzzer brings its own main), then
# run with libFuzzer's -max_total_time, one target after the other (the machine is shared). The working
# corpus grows in .build-fuzz/corpus/<target>, seeded from Fuzz/corpus-seeds/<target>; crashing inputs
# land in fuzz-artifacts/<target>/ (gitignored). The final stats of each run (execs, exec/s, cov, ft,
# corpus) are printed at the end, and the script fails if a target found a crash.
#
# FUZZ_ARGS adds libFuzzer flags, e.g. FUZZ_ARGS="-fork=1 -ignore_crashes=1" to keep going after a crash.
# Replay one input (a crash, or a corpus file) with: .build-fuzz/fuzz-protocol fuzz-artifacts/protocol/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."

which="${1:-all}"
seconds="${2:-60}"
case "$which" in
    protocol | game | journal | http | websocket) targets=("$which") ;;
    all) targets=(protocol game journal http websocket) ;;
    *)
        echo "usage: $0 [protocol|game|journal|http|websocket|all] [SECONDS]" >&2
        exit 2
        ;;
esac
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
    echo "SECONDS must be a whole number, not '$seconds'" >&2
    exit 2
fi

build=.build-fuzz
mkdir -p "$build"
# The build folder ignores itself, so its binaries and the growing corpus never show up in git status.
[[ -f "$build/.gitignore" ]] || echo '*' >"$build/.gitignore"
# Without this, Swift's own crash handler runs first and libFuzzer never writes the crash file.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:handle_abort=1:malloc_context_size=4}"

# SETD_FUZZ: the oracles are compiled into the library's own module, so they skip importing it.
flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -D SETD_FUZZ)

# The oracles of each target, from the test support target: those that import only SetGame for the game,
# those that import only SetProtocol for the protocol.
support=Sources/SetTestSupport
game_oracles=("$support/SetReference.swift" "$support/MatchismoReference.swift" "$support/ModeReference.swift"
    "$support/VariantReference.swift")
protocol_oracles=("$support/FramingReference.swift" "$support/TextReference.swift")
websocket_oracles=("$support/WebSocketReference.swift")

# swiftc, without ASan's harmless "Cannot export local symbol" linker notes.
compile() {
    local status=0
    swiftc "${flags[@]}" "$@" >"$build/swiftc.log" 2>&1 || status=$?
    grep -v "warning: Cannot export local symbol '__asan" "$build/swiftc.log" >&2 || true
    return "$status"
}

build_target() {
    local target="$1" binary="$build/fuzz-$1"
    echo "== building $target fuzzer" >&2
    rm -f "$binary"
    case "$target" in
        protocol)
            # SetProtocol imports SetGame, so SetGame is built as its own (instrumented) module first.
            local lib="$build/lib"
            mkdir -p "$lib"
            rm -f "$lib/libSetGame.a"
            compile -module-name SetGame -emit-module -emit-module-path "$lib/SetGame.swiftmodule" \
                -emit-library -static -o "$lib/libSetGame.a" Sources/SetGame/*.swift
            compile -module-name SetProtocol -I "$lib" -L "$lib" -lSetGame \
                Fuzz/FuzzSupport.swift Fuzz/ProtocolFuzzer.swift "${protocol_oracles[@]}" Sources/SetProtocol/*.swift \
                -o "$binary"
            ;;
        journal)
            # The journal's format and replay live in SetServerCore, over SetGame, SetProtocol and
            # SetDigest (the digests of claimed names' keys).
            local lib="$build/lib"
            mkdir -p "$lib"
            rm -f "$lib/libSetGame.a" "$lib/libSetProtocol.a" "$lib/libSetDigest.a"
            compile -module-name SetDigest -emit-module -emit-module-path "$lib/SetDigest.swiftmodule" \
                -emit-library -static -o "$lib/libSetDigest.a" Sources/SetDigest/*.swift
            compile -module-name SetGame -emit-module -emit-module-path "$lib/SetGame.swiftmodule" \
                -emit-library -static -o "$lib/libSetGame.a" Sources/SetGame/*.swift
            compile -module-name SetProtocol -I "$lib" -L "$lib" -lSetGame -emit-module \
                -emit-module-path "$lib/SetProtocol.swiftmodule" -emit-library -static \
                -o "$lib/libSetProtocol.a" Sources/SetProtocol/*.swift
            compile -module-name SetServerCore -D SETD_FUZZ -I "$lib" -L "$lib" -lSetProtocol -lSetGame -lSetDigest \
                Fuzz/FuzzSupport.swift Fuzz/JournalFuzzer.swift Sources/SetServerCore/*.swift \
                Sources/SetServerCore/*/*.swift -o "$binary"
            ;;
        http | websocket)
            # SetWeb imports SetDigest (SHA-1, for the handshake).
            local lib="$build/lib" fuzzer=Fuzz/HTTPFuzzer.swift oracles=()
            [[ "$target" == websocket ]] && fuzzer=Fuzz/WebSocketFuzzer.swift oracles=("${websocket_oracles[@]}")
            mkdir -p "$lib"
            rm -f "$lib/libSetDigest.a"
            compile -module-name SetDigest -emit-module -emit-module-path "$lib/SetDigest.swiftmodule" \
                -emit-library -static -o "$lib/libSetDigest.a" Sources/SetDigest/*.swift
            compile -module-name SetWeb -I "$lib" -L "$lib" -lSetDigest \
                Fuzz/FuzzSupport.swift "$fuzzer" "${oracles[@]}" Sources/SetWeb/*.swift Sources/SetWeb/Page/*.swift \
                -o "$binary"
            ;;
        game)
            compile -module-name SetGame Fuzz/FuzzSupport.swift Fuzz/GameFuzzer.swift "${game_oracles[@]}" \
                Sources/SetGame/*.swift -o "$binary"
            ;;
    esac
    [[ -x "$binary" ]]
}

summaries=()
for target in "${targets[@]}"; do
    build_target "$target"
    corpus="$build/corpus/$target"
    artifacts="fuzz-artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    log="$build/fuzz-$target.log"
    dict=()
    [[ -f "Fuzz/$target.dict" ]] && dict=("-dict=Fuzz/$target.dict")
    maxlen=4096
    [[ "$target" == game ]] && maxlen=2048
    # Past the 8 KiB head cap, and room for frames with 16-bit lengths.
    [[ "$target" == http || "$target" == websocket ]] && maxlen=10000
    echo "== fuzzing $target for ${seconds}s (log: $log)" >&2
    set +e
    # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
    "$build/fuzz-$target" "$corpus" "Fuzz/corpus-seeds/$target" \
        -max_total_time="$seconds" -max_len="$maxlen" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" \
        ${FUZZ_ARGS:-} >"$log" 2>&1
    status=$?
    set -e
    # The last status line ("#N DONE cov: … ft: … corp: … exec/s: …") and libFuzzer's final stats.
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    summaries+=("$target: exit $status")
    summaries+=("  $last")
    while IFS= read -r line; do summaries+=("  $line"); done < <(grep -E '^stat::' "$log" || true)
    if ((status != 0)); then
        summaries+=("  FAILED: see $log; crashing inputs in $artifacts/:")
        while IFS= read -r file; do summaries+=("    $file"); done < <(ls -1 "$artifacts" 2>/dev/null)
        grep -E 'fuzz invariant failed|Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer' "$log" |
            head -n 5 | sed 's/^/    /' >&2 || true
    fi
done

printf '%s\n' "${summaries[@]}"
for summary in "${summaries[@]}"; do
    [[ "$summary" == *"exit 0" || "$summary" != *": exit "* ]] || exit 1
done
