import Foundation

/// When each test of a lane got its place and gave it back, written to the file `SETD_TEST_LANE_LOG`
/// names (nothing is written without it): how to see which tests make the end of a `swift test` run,
/// since Swift Testing reports a test as started before it waits for its place.
///
/// A line is `<seconds since boot> <enter|leave> <lane> <test>`, the clock every process shares (a test
/// that runs a copy of the test binary writes there too); lines from concurrent tests are whole, one
/// `write` each, to a file opened for appending.
enum LaneLog {
    private static let fd: Int32? = {
        guard let path = ProcessInfo.processInfo.environment["SETD_TEST_LANE_LOG"], !path.isEmpty else {
            return nil
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        return fd >= 0 ? fd : nil
    }()
    /// Writes one line for `test` in `lane` if the log is on.
    static func note(_ event: String, lane: OwnThread.Lane, test: String) {
        guard let fd else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let line = Array("\(String(format: "%.2f", seconds)) \(event) \(lane) \(test)\n".utf8)
        line.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
    }
}
