import Dispatch
import SetDigest

/// What one stored key or password costs: `journal-bench --key-hash [ITERATIONS]` times PBKDF2-HMAC-SHA1
/// of a 16-byte salt (the median of 21 hashes), which is what every `HELLO <name> key=…` of a claimed name
/// and every `JOIN`/`WATCH` of a private room costs the server, and every guess costs a guesser who has
/// the journal. `journal-bench --pbkdf2-check` checks RFC 6070's longest vector (16,777,216 iterations),
/// which is too slow for the unit tests (`scripts/pbkdf2-check.sh`).
enum KeyHashBench {
    static func bench(iterations: Int) {
        var times: [Double] = []
        let salt = [UInt8](repeating: 0xA5, count: 16)
        for round in 0..<21 {
            let start = DispatchTime.now().uptimeNanoseconds
            let hash = PasswordHash(secret: "key-\(round)", salt: salt, iterations: iterations)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            precondition(hash.digest.count == SHA1.byteCount)
        }
        let median = times.sorted()[times.count / 2]
        let perSecond = Int((1000 / median).rounded())
        print(
            "pbkdf2-sha1 \(iterations) iterations, 16-byte salt: \(format3(median)) ms a hash "
                + "(median of 21; min \(format3(times.min()!)) ms), \(perSecond) guesses a second "
                + "on one core")
    }

    /// RFC 6070's fourth vector; exits 1 when it is wrong.
    static func checkLongVector() -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        let derived = PBKDF2.sha1(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: 16_777_216)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let expected = "eefe3d61cd4da4e4e9945b3d6ba2158c2634e984"
        let isRight = derived.hexString == expected
        print(
            "RFC 6070 vector 4 (16777216 iterations): \(derived.hexString) "
                + "\(isRight ? "ok" : "WRONG, expected \(expected)") in \(format3(seconds)) s")
        return isRight
    }

    private static func format3(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
