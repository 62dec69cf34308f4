/// Why a QR code could not be made.
public enum QRError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data has more bytes than the largest version this encoder makes (version 10 at level M)
    /// holds; setd's links are far shorter, so a longer input is a bug rather than a reason to grow.
    case tooLong(byteCount: Int, maximum: Int)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .tooLong(let byteCount, let maximum):
            "\(byteCount) bytes do not fit in a QR code of version \(QRCode.versions.upperBound) at level M, "
                + "which holds at most \(maximum)"
        }
    }
}
