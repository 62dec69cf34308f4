import Foundation

/// Resident memory of a process, read from Linux's `/proc/<pid>/status`.
enum ProcessMemory {
    /// `VmRSS` of `pid` (`nil` for this process) in KiB, or `nil` if it cannot be read.
    static func residentKiB(of pid: Int32? = nil) -> Int? {
        field("VmRSS", of: pid)
    }

    /// `VmHWM`, the peak resident memory, in KiB.
    static func peakKiB(of pid: Int32? = nil) -> Int? {
        field("VmHWM", of: pid)
    }

    private static func field(_ name: String, of pid: Int32?) -> Int? {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
