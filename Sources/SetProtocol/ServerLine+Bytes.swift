extension ServerLine {
    /// `CHAT <name> <text>` and its LF, as bytes, made straight from the name's and the text's UTF-8:
    /// exactly `ServerLine.chat(name:text:).text` and an LF, without the string made in between. A busy
    /// room's events are nearly all chat lines, and each was a string, then copied into bytes.
    public static func chatBytes(name: String, text: String) -> [UInt8] {
        var name = name
        var text = text
        return name.withUTF8 { name in
            text.withUTF8 { text in
                let prefix: StaticString = "CHAT "
                let count = prefix.utf8CodeUnitCount + name.count + 1 + text.count + 1
                return [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
                    var at = bytes.baseAddress!
                    at.initialize(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                    at += prefix.utf8CodeUnitCount
                    if let base = name.baseAddress { at.initialize(from: base, count: name.count) }
                    at += name.count
                    at.initialize(to: 0x20)
                    at += 1
                    if let base = text.baseAddress { at.initialize(from: base, count: text.count) }
                    at += text.count
                    at.initialize(to: 0x0A)
                    initialized = count
                }
            }
        }
    }
}
