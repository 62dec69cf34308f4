#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs them for a while.
#
#   scripts/fuzz.sh [protocol|game|journal|http|websocket|engine|dns|all] [SECONDS]   (default: all, 60 s each)
#   scripts/fuzz.sh --ci [SECONDS]                                                 (every target, 20 s each)
#
# The libraries (SetGame, SetProtocol, SetDigest, SetQR, SetWeb, SetServerCore, SetEngine, SetDiscovery) are
# compiled as their own modules, whole-module as a release build is (without -wmo nothing is specialized or inlined
# across files, and an engine input costs a fifth more): those a target is about with -sanitize=fuzzer,address,
# so libFuzzer's coverage and comparison tracing and ASan's checks cover them (the engine and dns targets
# without ASan, see build_target), the ones it only calls without instrumentation; each harness (Fuzz/<Name>Fuzzer.swift with
# Fuzz/FuzzSupport.swift) and the reference oracles it checks against (Sources/SetTestSupport, shared with
# the tests) are compiled as a plain optimized module that imports them, like a test does: the checking code
# costs no instrumentation and adds no coverage of its own (the engine target's second core, which the
# journal is replayed into, is SetServerCore's sources built plain under another module name:
# Fuzz/EngineShadow.swift). They are linked with libFuzzer's main into .build-fuzz/fuzz-<target> (not
# through SwiftPM: libFuzzer brings its own main), then run with -max_total_time, one target after the
# other (the machine is shared).
#
# The working corpus grows in .build-fuzz/corpus/<target>, seeded from Fuzz/corpus-seeds/<target>;
# crashing inputs land in fuzz-artifacts/<target>/ (gitignored). The final stats of each run (execs,
# exec/s, cov, ft, corpus) are printed at the end, and the script fails if a target found a crash or a
# broken invariant, printing the input that did it.
#
# --ci is the mode for CI: every target for SECONDS (default 20) from its checked-in seeds only (a fresh
# working corpus, so a run does not depend on what earlier runs found), each stopped by libFuzzer's
# -max_total_time (and by `timeout` should libFuzzer itself hang). It exits 1 if any target failed.
#
# FUZZ_REUSE_LIBS=1 links the harnesses against the libraries an earlier run built, for a change in Fuzz/
# alone; FUZZ_BUILD_ONLY=1 builds and stops. FUZZ_ARGS adds libFuzzer flags, e.g. FUZZ_ARGS="-fork=1 -ignore_crashes=1" to keep going after a
# crash.
# The harnesses check what an earlier input already checked only once per process (CheckedOnce,
# ComputedOnce and PrefixCache in Fuzz/FuzzSupport.swift); FUZZ_NO_CACHE=1 checks everything every time,
# which -merge=1 needs. Replay one input (a crash, or a corpus file) with: .build-fuzz/fuzz-protocol fuzz-artifacts/…
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: $0 [protocol|game|journal|http|websocket|engine|dns|all] [SECONDS]" >&2
    echo "       $0 --ci [SECONDS]" >&2
    exit 2
}

ci=false
if [[ "${1:-}" == --ci ]]; then
    ci=true
    which=all
    seconds="${2:-20}"
    (($# <= 2)) || usage
else
    which="${1:-all}"
    seconds="${2:-60}"
    (($# <= 2)) || usage
fi
case "$which" in
    protocol | game | journal | http | websocket | engine | dns) targets=("$which") ;;
    all) targets=(protocol game journal http websocket engine dns) ;;
    *) usage ;;
esac
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
    echo "SECONDS must be a whole number, not '$seconds'" >&2
    exit 2
fi

build=.build-fuzz
lib="$build/lib"
mkdir -p "$build" "$lib"
# The build folder ignores itself, so its binaries and the growing corpus never show up in git status.
[[ -f "$build/.gitignore" ]] || echo '*' >"$build/.gitignore"
# Without this, Swift's own crash handler runs first and libFuzzer never writes the crash file.
export SWIFT_BACKTRACE=enable=no
# A 1 MB quarantine (64 KB per thread) instead of ASan's 256 MB: a use after free is still caught within
# the last megabyte of frees — thousands of lines' worth, far more than a stale buffer pointer would be
# used within — and memory comes back to malloc while it is still in the cache: with 16 MB, every
# allocation's header was a cache miss (the hottest instruction of the game and protocol targets, the
# allocator 12 % of their time). No stack is
# kept for each allocation (5-9 % of every target's time); for them in a report, replay the input with
# ASAN_OPTIONS=malloc_context_size=30. New memory is not filled with garbage first (max_malloc_fill_size=0;
# 2-3 % of protocol's and game's time in memset): Swift never reads memory it did not initialize, and
# ASan does not report such reads anyway.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:handle_abort=1:malloc_context_size=0:quarantine_size_mb=1:thread_local_quarantine_size_kb=64:max_malloc_fill_size=0}"

common=(-parse-as-library -swift-version 6 -O -g)
instrumented=(-sanitize=fuzzer,address "${common[@]}")

# swiftc, without ASan's harmless "Cannot export local symbol" linker notes.
compile() {
    local status=0
    swiftc "$@" >"$build/swiftc.log" 2>&1 || status=$?
    grep -v "warning: Cannot export local symbol '__asan" "$build/swiftc.log" >&2 || true
    return "$status"
}

# Each library is built in up to three variants per run of this script, after the libraries it imports:
#   cov     libFuzzer's coverage and comparison tracing, and ASan: the libraries a target is about;
#   fuzzer  coverage and comparison tracing without ASan: the same, for the engine and dns targets
#           (below), its comparison tracing gated on `__sancov_should_track` (LLVM's gated trace
#           callbacks), which the engine's harness sets while the engine runs an input and clears while
#           it checks the result, and the dns harness sets for the whole input (Fuzz/TraceGate.h);
#   plain   neither: the libraries a target only calls, as the harness itself is compiled.
# Coverage of a library a target is not about adds cost, not findings: every traced comparison and every
# counter libFuzzer collects after each input is paid for, and that library has its own target (SetGame,
# SetProtocol, SetWeb, SetServerCore's journal) or is plain arithmetic over arrays, bounds-checked by
# Swift (SetDigest, SetQR). The modules' interfaces are the same in every variant, so there is one
# .swiftmodule per library (in $lib) and one archive per variant ($lib/cov, $lib/fuzzer, $lib/plain).
built=" "
library() {
    local name="$1" variant="$2" deps=() sources=() flags=() source="$1"
    [[ "$built" == *" $name/$variant "* ]] && return 0
    # FUZZ_REUSE_LIBS=1: keep the archives an earlier run built (when only Fuzz/ changed since).
    if [[ "${FUZZ_REUSE_LIBS:-}" == 1 && -f "$lib/$variant/lib$name.a" && -f "$lib/$name.swiftmodule" ]]; then
        built+="$name/$variant "
        return 0
    fi
    case "$name" in
        SetProtocol) deps=(SetGame) ;;
        SetWeb) deps=(SetDigest SetQR) ;;
        SetServerCore) deps=(SetGame SetProtocol SetDigest) ;;
        # SetServerCore's sources as a module of their own, for the engine target's second core (see
        # Fuzz/EngineShadow.swift): its names are mangled with its own module name, so both link into one
        # binary, the live core instrumented and this one plain.
        SetServerCoreShadow)
            source=SetServerCore
            deps=(SetGame SetProtocol SetDigest)
            ;;
        SetEngine) deps=(SetServerCore SetProtocol SetWeb) ;;
    esac
    local dep
    # An interface is all a library needs of what it imports: any variant's.
    for dep in "${deps[@]}"; do
        [[ "$built" == *" $dep/"* ]] || library "$dep" plain
    done
    case "$variant" in
        cov) flags=("${instrumented[@]}") ;;
        fuzzer) flags=(-sanitize=fuzzer -Xllvm -sanitizer-coverage-gated-trace-callbacks "${common[@]}") ;;
        plain) flags=("${common[@]}") ;;
    esac
    echo "== building $name ($variant)" >&2
    mapfile -t sources < <(find "Sources/$source" -name '*.swift' | sort)
    # A target with embedded resources (the page's files) needs the PackageResources SwiftPM generates.
    if grep -rq PackageResources "Sources/$source"; then
        swift build --target "$name" >&2
        sources+=("$(find .build -path "*/debug/$name.build/DerivedSources/embedded_resources.swift" | head -1)")
    fi
    mkdir -p "$lib/$variant"
    rm -f "$lib/$variant/lib$name.a"
    compile "${flags[@]}" -wmo -module-name "$name" -I "$lib" -emit-module \
        -emit-module-path "$lib/$name.swiftmodule" -emit-library -static -o "$lib/$variant/lib$name.a" \
        "${sources[@]}"
    built+="$name/$variant "
}

build_target() {
    local target="$1" binary="$build/fuzz-$1" covered=() called=() files=() sanitizers=fuzzer,address header=()
    local support=Sources/SetTestSupport
    # covered: the libraries the target is about (coverage, and ASan unless said otherwise); called: the
    # rest it links (plain).
    case "$target" in
        protocol)
            # Card codes in CHOOSE are read by SetGame: part of what the parser does.
            covered=(SetProtocol SetGame)
            files=(Fuzz/ProtocolFuzzer.swift "$support/FramingReference.swift" "$support/TextReference.swift")
            ;;
        game)
            covered=(SetGame)
            files=(Fuzz/GameFuzzer.swift "$support/SetReference.swift" "$support/MatchismoReference.swift"
                "$support/ModeReference.swift" "$support/VariantReference.swift")
            ;;
        journal)
            # The journal's format and replay live in SetServerCore, over SetGame, SetProtocol and SetDigest
            # (the digests of claimed names' keys, and the 10,000 rounds of PBKDF2 a legacy room password
            # gets on replay, which instrumented were a sixth of the target's time).
            covered=(SetServerCore)
            called=(SetProtocol SetGame SetDigest)
            files=(Fuzz/JournalFuzzer.swift)
            ;;
        http)
            covered=(SetWeb)
            called=(SetQR SetDigest)
            files=(Fuzz/HTTPFuzzer.swift)
            ;;
        websocket)
            covered=(SetWeb)
            called=(SetQR SetDigest)
            files=(Fuzz/WebSocketFuzzer.swift "$support/WebSocketReference.swift")
            ;;
        engine)
            # The connection engine and the core it drives; the parsers and rules under them have their
            # own targets. Without ASan: its allocator (a quarter of this target's time, the engine and
            # core allocating for every line) and checks made the engine the slowest target by far, and
            # what they could find here is fuzzed with ASan elsewhere: the engine's only unsafe code
            # hands the bytes of a read, as a buffer pointer, to the line framer, the telnet filter and
            # the HTTP and WebSocket parsers (the protocol, http and websocket targets), and the core's
            # is the journal's and JSON's escape tables (the journal target). What this target is for —
            # the journal gate, the output cap, the connection count, replay equal to live play — Swift's
            # own checks (bounds, overflow, exclusivity) and the harness's invariants stop.
            covered=(SetEngine SetServerCore)
            # The second core the journal is replayed into, plain: checking, not explored (see
            # Fuzz/EngineShadow.swift).
            called=(SetWeb SetQR SetProtocol SetGame SetDigest SetServerCoreShadow)
            sanitizers=fuzzer
            files=(Fuzz/EngineFuzzer.swift Fuzz/EngineShadow.swift)
            header=(-import-objc-header Fuzz/TraceGate.h)
            ;;
        dns)
            # The mDNS message codec, the responder and the finder (setd --announce, set-cli --find).
            # Without ASan, as the engine: SetDiscovery holds no unsafe code (no pointers, no buffers of
            # its own), so every out-of-bounds read is a Swift bounds check that traps here as a crash
            # with or without it, and its allocator and checks were a third of this target's time.
            covered=(SetDiscovery)
            sanitizers=fuzzer
            files=(Fuzz/DNSFuzzer.swift)
            header=(-import-objc-header Fuzz/TraceGate.h)
            ;;
    esac
    # Built in the order they import each other; linked the other way round (an archive before those it
    # needs).
    local name variant archives=()
    for name in SetGame SetProtocol SetDigest SetQR SetWeb SetServerCore SetServerCoreShadow SetEngine SetDiscovery; do
        if [[ " ${covered[*]} " == *" $name "* ]]; then
            variant=cov
            [[ "$sanitizers" == *address* ]] || variant=fuzzer
        elif [[ " ${called[*]:-} " == *" $name "* ]]; then
            variant=plain
        else
            continue
        fi
        library "$name" "$variant"
        archives=("$lib/$variant/lib$name.a" "${archives[@]}")
    done
    echo "== building $target fuzzer" >&2
    rm -f "$binary" "$build/fuzz-$target.o"
    compile "${common[@]}" "${header[@]}" -module-name "Fuzz_$target" -I "$lib" -wmo -c Fuzz/FuzzSupport.swift "${files[@]}" \
        -o "$build/fuzz-$target.o"
    compile -sanitize="$sanitizers" "$build/fuzz-$target.o" "${archives[@]}" -o "$binary"
    [[ -x "$binary" ]]
}

# The input libFuzzer saved, in hex and as text (control bytes as ^X, high bytes as M-x), at most 4 KiB.
show_input() {
    local file="$1" size
    size=$(wc -c <"$file")
    echo "    $file ($size bytes), in hex:"
    head -c 4096 "$file" | od -A d -t x1 -v | sed 's/^/      /'
    echo "    as text:"
    head -c 4096 "$file" | cat -v | sed 's/^/      | /'
    echo
    ((size <= 4096)) || echo "    (only the first 4096 bytes shown)"
}

summaries=()
failed=false
for target in "${targets[@]}"; do
    build_target "$target"
done
# FUZZ_BUILD_ONLY=1: the binaries, for profiles and side-by-side runs, without fuzzing.
[[ "${FUZZ_BUILD_ONLY:-}" != 1 ]] || exit 0
for target in "${targets[@]}"; do
    corpus="$build/corpus/$target"
    if $ci; then
        corpus="$build/ci-corpus/$target"
        rm -rf "$corpus"
    fi
    artifacts="fuzz-artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    log="$build/fuzz-$target.log"
    dict=()
    [[ -f "Fuzz/$target.dict" ]] && dict=("-dict=Fuzz/$target.dict")
    maxlen=4096
    # A game input is a list of operations, and an input resumes from the state an earlier one reached
    # (its prefix cache): deep games come from short inputs built on each other, which run far more
    # often than long ones (the same coverage at 128 bytes as at 2 KiB, in 60 s, at 1.5 times the rate).
    [[ "$target" == game ]] && maxlen=160
    # Past the 1,024-byte line cap with a line after it (shorter caps come from the cap byte): at 4 KiB
    # the longest inputs, framed and filtered four times each, were most of the target's time.
    [[ "$target" == protocol ]] && maxlen=2100
    # Past the 8 KiB head cap, and room for frames with 16-bit lengths.
    [[ "$target" == http || "$target" == websocket ]] && maxlen=10000
    # Past the 9,000-byte cap on a datagram.
    [[ "$target" == dns ]] && maxlen=9100
    target_flags=()
    # An engine input costs about its number of operations (each a line or bytes through the engine and
    # core), and its coverage grows far slower than that (a 400-byte input sets under three times the
    # counters of a 50-byte one): entropic's energy scaled by each input's run time (AFL's performance
    # score, x0.1 to x3 around the average) mutates the cheap inputs more often and the slow ones less,
    # without dropping any. The corpus it grows keeps its length limit and its longest inputs; see
    # BENCHMARKS-fuzz.md for rates with cov and ft on the same corpus.
    [[ "$target" == engine ]] && target_flags=(-entropic_scale_per_exec_time=1)
    echo "== fuzzing $target for ${seconds}s (log: $log)" >&2
    before=$(mktemp)
    ls -1 "$artifacts" >"$before"
    set +e
    # libFuzzer stops itself after -max_total_time (once the seeds have run); `timeout` is only a
    # backstop for a hang outside any one input (each input has -timeout).
    # The CPU time it used (user + system, from bash's `time`) as well: on a shared machine libFuzzer's
    # exec/s, per second of wall time, measures the neighbours too.
    cpu_file=$(mktemp)
    # -reload=0: libFuzzer lists the working corpus every second to pick up what other processes added to
    # it (stat of each of its 1,000-3,000 files); one process fuzzes a target here, and the listing was
    # 1-5 % of the engine target's time.
    # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
    {
        TIMEFORMAT='%U %S'
        time timeout -k 10 $((seconds + 300)) "$build/fuzz-$target" "$corpus" "Fuzz/corpus-seeds/$target" \
            -max_total_time="$seconds" -max_len="$maxlen" -timeout=10 -rss_limit_mb=2048 -reload=0 \
            -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "${target_flags[@]}" \
            ${FUZZ_ARGS:-} >"$log" 2>&1
    } 2>"$cpu_file"
    status=$?
    set -e
    # The last status line ("#N DONE cov: … ft: … corp: … exec/s: …") and libFuzzer's final stats.
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    summaries+=("$target: exit $status")
    [[ -z "$last" ]] || summaries+=("  $last")
    while IFS= read -r line; do summaries+=("  $line"); done < <(grep -E '^stat::' "$log" || true)
    execs=$(grep -E '^stat::number_of_executed_units:' "$log" | grep -oE '[0-9]+$' || true)
    read -r user system <"$cpu_file" || true
    rm -f "$cpu_file"
    if [[ -n "$execs" && -n "${user:-}" ]]; then
        summaries+=("  $(awk -v n="$execs" -v u="$user" -v s="$system" \
            'BEGIN { c = u + s; printf "cpu: %.1f s (user+sys), %d execs per CPU second", c, (c > 0 ? n / c : 0) }')")
    fi
    if ((status != 0)); then
        failed=true
        summaries+=("  FAILED: see $log")
        echo "== $target FAILED (exit $status):" >&2
        grep -E 'fuzz invariant failed|Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|SUMMARY' "$log" |
            head -n 5 | sed 's/^/    /' >&2 || true
        # The inputs this run saved (crash-, timeout-, oom-, leak-…), each in full.
        while IFS= read -r file; do
            summaries+=("  input: $artifacts/$file")
            show_input "$artifacts/$file" >&2
        done < <(ls -1 "$artifacts" | grep -vxF -f "$before" || true)
    fi
    rm -f "$before"
done

printf '%s\n' "${summaries[@]}"
if $failed; then exit 1; fi
