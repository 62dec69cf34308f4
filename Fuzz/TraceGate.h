// The switch of the engine target's comparison tracing (scripts/fuzz.sh builds its libraries with LLVM's
// `-sanitizer-coverage-gated-trace-callbacks`): while it is 0, an instrumented comparison is a load and a
// branch instead of a call into libFuzzer. The harness turns it on while the engine runs an input and off
// while the harness checks what the engine did: the comparisons of that checking (encoding both states'
// snapshots, reading the journal lines back) say nothing about which input bytes to try next, and
// tracing them was a tenth of the target's time. (The second core the journal is replayed into is not
// instrumented at all: Fuzz/EngineShadow.swift.) Coverage counters are not gated: the checks' code
// still counts as covered.
extern unsigned long long __sancov_should_track;

/// Turns the tracing of comparisons on (1) or off (0).
static inline void fuzzTraceComparisons(unsigned long long on) { __sancov_should_track = on; }

/// Whether comparisons are traced (1) or not (0).
static inline unsigned long long fuzzTracesComparisons(void) { return __sancov_should_track; }
