/// The release every binary of this package reports with `--version`: one constant, so that setd,
/// set-cli and the benchmarks can never disagree about which build they are.
public enum Release {
    /// The package's version, `major.minor.patch`.
    public static let version = "1.1.0"
    /// The protocol version the server's greeting names (`SETD 1 …`, protocol.md).
    public static let protocolVersion = 1

    /// The `--version` line of `program`, e.g. `setd 1.1.0 (protocol 1)`.
    public static func banner(_ program: String) -> String {
        "\(program) \(version) (protocol \(protocolVersion))"
    }
}
