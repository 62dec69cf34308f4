#if canImport(Glibc)
    import Glibc
#endif

/// `zbarimg` (Debian's zbar-tools), a real QR decoder for the tests of SetQR: what it reads from our
/// images is what a reader that is not ours reads.
public enum Zbarimg {
    /// How to get the program, for the failure of a test that needs it.
    public static let missing =
        "zbarimg is not installed; the QR tests decode with it (`apt-get install zbar-tools`; .ci/run installs it)"

    /// Images decoded at once: each is a process of its own, and the machine has few cores.
    static let parallelDecodes = 4

    /// The bytes zbarimg decodes from each PNG image, `nil` for an image where it finds no code; in the
    /// order of `images`. The data comes as it is in the code (`-Sbinary`: no guessing of a character set
    /// and no newline added). Throws if zbarimg is not installed, fails, or takes more than 20 seconds.
    public static func decode(_ images: [[UInt8]]) throws -> [[UInt8]?] {
        guard let program = programOnPath("zbarimg") else { throw ClientError(description: missing) }
        let directory = try TemporaryDirectory("setd-qr")
        var results: [[UInt8]?] = []
        for batchStart in stride(from: 0, to: images.count, by: parallelDecodes) {
            let batch = batchStart..<min(batchStart + parallelDecodes, images.count)
            var children: [Child] = []
            for index in batch {
                let path = "\(directory.path)/\(index).png"
                try writeFile(path, images[index])
                children.append(try Child(program, ["-q", "--raw", "-Sbinary", "--nodbus", path]))
            }
            for (index, child) in zip(batch, children) {
                guard let status = child.wait(timeout: 20) else {
                    child.stop()
                    throw ClientError(description: "zbarimg took more than 20 s on image \(index)")
                }
                _ = child.output(within: 5)
                switch status {
                case 0: results.append(child.rawOutput)
                // zbarimg's status when it found no symbol.
                case 4: results.append(nil)
                default:
                    throw ClientError(
                        description: "zbarimg failed with status \(status) on image \(index): \(child.errors)"
                    )
                }
            }
        }
        return results
    }

    private static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        guard let file = fopen(path, "we") else {
            throw ClientError(description: "cannot create \(path), errno \(errno)")
        }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
            throw ClientError(description: "short write to \(path)")
        }
    }
}
