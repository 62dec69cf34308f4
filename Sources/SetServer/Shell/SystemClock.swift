import Dispatch
import SetServerCore

#if canImport(Glibc)
    import Glibc
#endif

/// The real clocks, read by the shell and handed to the core with every input.
enum SystemClock {
    /// Now, on the monotonic clock and in Unix time.
    static func now() -> Instant {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return Instant(
            uptime: Double(DispatchTime.now().uptimeNanoseconds) / 1e9,
            wall: Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9)
    }
}
