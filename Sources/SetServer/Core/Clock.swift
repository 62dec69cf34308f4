import Dispatch

/// Monotonic seconds since an arbitrary start; the only clock the server reads.
enum Clock {
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

#if canImport(Glibc)
    import Glibc
#endif

extension Clock {
    /// Unix time in seconds, for history and the journal, which must make sense across restarts.
    static func wall() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
