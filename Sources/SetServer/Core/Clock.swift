import Dispatch

/// Monotonic seconds since an arbitrary start; the only clock the server reads.
enum Clock {
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
