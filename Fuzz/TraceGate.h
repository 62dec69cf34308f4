// The switch of the engine target's comparison tracing (scripts/fuzz.sh builds its libraries with LLVM's
// `-sanitizer-coverage-gated-trace-callbacks`): while it is 0, an instrumented comparison is a load and a
// branch instead of a call into libFuzzer. The harness turns it on while the engine runs an input and off
// while the harness checks what the engine did: the comparisons of that checking (encoding both states'
// snapshots, reading the journal lines back) say nothing about which input bytes to try next, and
// tracing them was a tenth of the target's time. (The second core the journal is replayed into is not
// instrumented at all: Fuzz/EngineShadow.swift.) Coverage counters cannot be gated; the harness puts
// them back as they were before a check instead (`fuzzSaveCounters`, `fuzzRestoreCounters`). The dns
// target's library is built the same way (without ASan), and its harness turns tracing on for the whole
// input.
extern unsigned long long __sancov_should_track;

/// Turns the tracing of comparisons on (1) or off (0).
static inline void fuzzTraceComparisons(unsigned long long on) { __sancov_should_track = on; }

/// Whether comparisons are traced (1) or not (0).
static inline unsigned long long fuzzTracesComparisons(void) { return __sancov_should_track; }

// The coverage counters of every instrumented module, one byte per edge, which libFuzzer reads after each
// input (the linker's bounds of their section).
extern unsigned char __start___sancov_cntrs[];
extern unsigned char __stop___sancov_cntrs[];

/// How many coverage counters there are.
static inline unsigned long fuzzCounterCount(void) {
    return (unsigned long)(__stop___sancov_cntrs - __start___sancov_cntrs);
}

/// Copies the coverage counters to `to` (fuzzCounterCount() bytes).
static inline void fuzzSaveCounters(unsigned char *to) {
    __builtin_memcpy(to, __start___sancov_cntrs, fuzzCounterCount());
}

/// Sets the coverage counters back to what `fuzzSaveCounters` copied to `from`.
static inline void fuzzRestoreCounters(const unsigned char *from) {
    __builtin_memcpy(__start___sancov_cntrs, from, fuzzCounterCount());
}
