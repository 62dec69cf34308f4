/// What real telnet clients send, byte for byte, for the tests of the shell and the core.
public enum TelnetReference {
    /// PuTTY's first bytes in telnet mode (`telnet.c`: every option of its `opts` table that starts
    /// REQUESTED, in order): `WILL NAWS`, `WILL TSPEED`, `WILL TTYPE`, `WILL NEW-ENVIRON`, `DO ECHO`,
    /// `WILL SGA`, `DO SGA`.
    public static let puttyOpening: [UInt8] = [
        255, 251, 31, 255, 251, 32, 255, 251, 24, 255, 251, 39, 255, 253, 1, 255, 251, 3, 255, 253, 3,
    ]

    /// setd's answer to ``puttyOpening``: each option refused (`DONT` for a `WILL`, `WONT` for a `DO`).
    public static let puttyRefusals: [UInt8] = [
        255, 254, 31, 255, 254, 32, 255, 254, 24, 255, 254, 39, 255, 252, 1, 255, 254, 3, 255, 252, 3,
    ]

    /// What PuTTY sends when NEW-ENVIRON is refused: `WILL OLD-ENVIRON`.
    public static let puttyOldEnviron: [UInt8] = [255, 251, 36]

    /// setd's answer to ``puttyOldEnviron``: `DONT OLD-ENVIRON`.
    public static let oldEnvironRefusal: [UInt8] = [255, 254, 36]

    /// A typed line as PuTTY sends it: CR LF (its default, "Return sends Telnet New Line") or, with that
    /// setting off, CR NUL (telnet's bare CR).
    public static func puttyLine(_ text: String, newLine: Bool = true) -> [UInt8] {
        Array(text.utf8) + (newLine ? [13, 10] : [13, 0])
    }
}
