#if canImport(Glibc)
    import Glibc
#endif

/// Unix time written as UTC, the one formatter for history lines, log lines and file names.
public enum UTCTime {
    /// `2026-12-02T20:01:00Z`, or with `milliseconds`, `2026-12-02T20:01:00.123Z`; `compact` drops the
    /// separators (`20261202T200100Z`) for file names.
    public static func format(_ time: Double, milliseconds: Bool = false, compact: Bool = false) -> String {
        var seconds = Int(time.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let (dash, colon) = compact ? ("", "") : ("-", ":")
        var text =
            "\(parts.tm_year + 1900)\(dash)\(two(parts.tm_mon + 1))\(dash)\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(colon)\(two(parts.tm_min))\(colon)\(two(parts.tm_sec))"
        if milliseconds {
            let millis = min(999, Int((time - Double(seconds)) * 1000))
            text += millis < 10 ? ".00\(millis)" : millis < 100 ? ".0\(millis)" : ".\(millis)"
        }
        return text + "Z"
    }
}
