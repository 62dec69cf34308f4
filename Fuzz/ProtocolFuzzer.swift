// libFuzzer target for the protocol layer: the line framer, the telnet filter, client command parsing,
// server line parsing and the free-text rules.
//
// Input layout: byte 0 picks the framer's cap (below 0x40: that many bytes, to reach the over-long paths
// with short inputs; otherwise the protocol's 1024), byte 1 seeds the chunk sizes, the rest is the byte
// stream a client sends.

import SetProtocol

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func protocolFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ProtocolFuzzer.run(fuzzBytes(data, size))
    return 0
}

enum ProtocolFuzzer {
    /// The largest chunk a read may deliver, by the low bits of the chunk byte: from one byte at a time to
    /// more than a whole line.
    static let chunkLimits = [1, 2, 7, 64, 300, 1025, 2100, 8192]

    /// The lines whose client and server parses were checked in this process.
    nonisolated(unsafe) static var checkedLines = CheckedOnce<ByteDigest>()

    static func run(_ input: [UInt8]) {
        var header = FuzzInput(input)
        let capByte = header.byte()
        let chunkByte = header.byte()
        let payload = Array(header.remaining)
        let cap = capByte < 0x40 ? Int(capByte) : LineFramer.maximumLineLength

        // The same bytes in one read and in reads of random sizes must give the same frames, and the
        // frames the rules in protocol.md describe.
        var whole = LineFramer(maximumLineLength: cap)
        let wholeFrames = whole.append(payload)
        // In pieces through the buffer API the server reads with (the array API above wraps it).
        var chunked = LineFramer(maximumLineLength: cap)
        var chunkedFrames: [LineFramer.Frame] = []
        var random = FuzzRandom(seed: UInt64(chunkByte) << 32 | UInt64(payload.count))
        let limit = chunkLimits[Int(chunkByte & 7)]
        payload.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(raw.count, start + random.next(in: 1...limit))
                chunked.append(UnsafeRawBufferPointer(rebasing: raw[start..<end])) {
                    chunkedFrames.append($0)
                }
                require(chunked.bufferedCount <= cap + 1, "the framer holds \(chunked.bufferedCount) bytes")
                start = end
            }
        }
        let (expectedFrames, expectedBuffered) = FramingReference.frames(payload, cap: cap)
        require(same(wholeFrames, chunkedFrames), "chunking changed the frames")
        require(same(wholeFrames, expectedFrames), "frames differ from the documented framing")
        require(
            whole.bufferedCount == expectedBuffered,
            "buffered \(whole.bufferedCount), not \(expectedBuffered)")
        require(chunked.bufferedCount == whole.bufferedCount, "chunking changed the buffered count")

        checkTelnet(payload, chunkByte: chunkByte)

        for frame in chunkedFrames {
            switch frame {
            case .line(let line):
                require(line.count <= cap && line.count <= LineFramer.maximumLineLength, "a long line")
                require(!line.contains(0x0A), "a line holds an LF")
                // What follows depends on the line's bytes alone, and most lines of a mutated input are
                // lines of the input it came from: each distinct line is checked once per process.
                guard checkedLines.isNew(line) else { continue }
                checkClientLine(line)
                checkServerLine(line)
            case .tooLong(let prefix):
                require((1...64).contains(prefix.count), "a too-long prefix of \(prefix.count) bytes")
            }
        }
    }

    /// Whether two lists of frames are equal, compared here and not by `Frame`'s `==`, which is compiled
    /// into the library and so pays coverage tracing on every byte.
    static func same(_ a: [LineFramer.Frame], _ b: [LineFramer.Frame]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                switch (x, y) {
                case (.line(let p), .line(let q)), (.tooLong(let p), .tooLong(let q)): return p == q
                default: return false
                }
            }
    }

    // MARK: Telnet

    /// The telnet filter: the same bytes in one read and in reads of random sizes give the same data and
    /// answers; answers only to a client that sent an IAC, three bytes each, each option at most twice
    /// (once per verb); never more data than came in, and exactly the input when it has no IAC or NUL.
    static func checkTelnet(_ payload: [UInt8], chunkByte: UInt8) {
        var whole = TelnetFilter()
        let (data, replies) = whole.filter(payload)
        var chunked = TelnetFilter()
        var chunkedData: [UInt8] = []
        var chunkedReplies: [UInt8] = []
        var random = FuzzRandom(seed: UInt64(chunkByte) << 40 | UInt64(payload.count))
        let limit = chunkLimits[Int(chunkByte >> 3 & 7)]
        payload.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(raw.count, start + random.next(in: 1...limit))
                chunked.filter(UnsafeRawBufferPointer(rebasing: raw[start..<end]), replies: &chunkedReplies) {
                    chunkedData.append(contentsOf: $0)
                }
                start = end
            }
        }
        require(
            data == chunkedData && replies == chunkedReplies, "chunking changed the telnet filter's output")
        require(data.count <= payload.count, "the filter made data")
        require(
            replies.isEmpty || payload.contains(TelnetFilter.Byte.iac), "an answer to a client without IAC")
        require(replies.count % 3 == 0 && replies.count <= 2 * 256 * 3, "\(replies.count) bytes of answers")
        if !payload.contains(TelnetFilter.Byte.iac) && !payload.contains(0) {
            require(data == payload, "the filter changed bytes with nothing to take out")
        }
    }

    // MARK: Client lines

    static let verbs = Set(Command.synopses.map(\.verb))

    static func checkClientLine(_ bytes: [UInt8]) {
        let result = Command.parse(bytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            guard case .failure(let error) = result, error.code == .badUTF8, error.verb == nil else {
                require(false, "invalid UTF-8 gave \(result)")
                return
            }
            checkError(error)
            return
        }
        require(Command.parse(text) == result, "bytes and text parse differently")
        switch result {
        case .success(let command): checkCommand(command)
        case .failure(let error): checkError(error)
        }

        // Blanks around the words do not change a line's meaning. (A tab, not a space, touches the text:
        // a space would fuse with a leading combining mark into one character.)
        require(Command.parse(" \t" + text) == result, "leading blanks change \(text.debugDescription)")
        require(Command.parse(text + "\t") == result, "a trailing tab changes \(text.debugDescription)")

        // Verbs are case-insensitive.
        var lowered = bytes
        var index = lowered.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? lowered.endIndex
        while index < lowered.endIndex, lowered[index] != 0x20, lowered[index] != 0x09 {
            if (0x41...0x5A).contains(lowered[index]) { lowered[index] |= 0x20 }
            index += 1
        }
        let loweredResult = Command.parse(lowered)
        if case .failure(let error) = result, error.code == .unknown {
            guard case .failure(let other) = loweredResult, other.code == .unknown else {
                require(false, "lower-casing the verb made \(text.debugDescription) known")
                return
            }
        } else {
            require(loweredResult == result, "lower-casing the verb changes \(text.debugDescription)")
        }

        // An escape sequence glued to the last word: whatever that word was, no reply may carry it.
        switch Command.parse(text + "\u{1B}[2J") {
        case .success(.chat(let text)):
            require(TextReference.isClean(text), "CHAT kept an escape: \(text.debugDescription)")
        case .success: break
        case .failure(let error): checkError(error)
        }

        checkSanitized(text)
        if let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).first {
            require(
                TextRules.isValidName(first) == TextReference.isValidName(first),
                "isValidName(\(first.debugDescription))")
        }
    }

    static func checkCommand(_ command: Command) {
        require(verbs.contains(command.verb), "unknown verb \(command.verb)")
        switch command {
        case .chat(let text):
            require(!text.isEmpty, "an empty CHAT")
            require(TextReference.isClean(text), "CHAT text \(text.debugDescription) has control characters")
            require(TextRules.sanitized(text) == text, "CHAT text \(text.debugDescription) is not sanitized")
            checkChatRoundTrip(text)
        case .choose(let picks, let revision):
            require((1...Command.maximumPicks).contains(picks.count), "\(picks.count) picks")
            require(revision.map { $0 >= 0 } ?? true, "a negative revision")
            for pick in picks {
                switch pick {
                case .position(let position):
                    // `a`…`z`, then `za`…`zz` for Matchismo's 30 cards.
                    require((0..<52).contains(position), "position \(position)")
                case .code(let code): require(!code.isEmpty, "an empty card code")
                }
            }
        case .hello(let name, let key):
            require(!name.isEmpty, "an empty name")
            require(key.map { !$0.isEmpty } ?? true, "an empty key")
        case .join(let room, _, let options):
            require(!room.isEmpty, "an empty room")
            for (key, value) in options {
                require(!key.isEmpty && !value.isEmpty && key == key.lowercased(), "option \(key)=\(value)")
            }
        default: break
        }
    }

    static func checkError(_ error: ProtocolError) {
        require(error.verb.map(verbs.contains) ?? true, "error verb \(String(describing: error.verb))")
        require(!error.text.isEmpty, "an empty error text")
        // The text goes to the client verbatim: it must not carry what the client typed unsanitized, nor
        // an unbounded amount of it.
        require(
            TextReference.isClean(error.text),
            "error text \(error.text.debugDescription) has control characters")
        require(error.text.count <= 100, "error text of \(error.text.count) characters")
        guard case .err(let verb, let code, let text) = ServerLine(parsing: Array(error.line.text.utf8)),
            verb == (error.verb?.rawValue ?? "-"), code == error.code, text == error.text
        else {
            require(false, "ERR line \(error.line.text.debugDescription) does not parse back")
            return
        }
    }

    // MARK: Free text

    static func checkSanitized(_ text: String) {
        let clean = TextRules.sanitized(text)
        require(
            TextReference.isClean(clean), "sanitized \(text.debugDescription) is \(clean.debugDescription)")
        require(!clean.hasPrefix(" ") && !clean.hasSuffix(" "), "sanitized text keeps outer spaces")
        require(TextRules.sanitized(clean) == clean, "sanitizing \(clean.debugDescription) again changes it")
        if !clean.isEmpty { checkChatRoundTrip(clean) }
    }

    /// A `CHAT` event the server formats from sanitized text parses back, in a client, to the same name
    /// and text.
    static func checkChatRoundTrip(_ text: String) {
        let line = ServerLine.chat(name: "ann", text: text).text
        require(
            TextReference.chatRoundTrips(text),
            "CHAT line \(line.debugDescription) parses as \(ServerLine(parsing: line))")
    }

    // MARK: Server lines

    /// The byte parser reads any bytes as some line, and what it understood formats to text it reads
    /// the same way again: format → parse → the same line.
    static func checkServerLine(_ bytes: [UInt8]) {
        let line = ServerLine(parsing: bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        // The String overload is a wrapper over the same parser; on valid UTF-8 it must agree exactly.
        // Equal text always; equal structure, field by field, for one line in eight (chosen by its bytes,
        // so a replay checks the same ones): `String(reflecting:)` costs more than all the rest.
        if Array(text.utf8) == bytes {
            let fromText = ServerLine(parsing: text)
            require(fromText == line, "the String and byte parsers disagree on \(text.debugDescription)")
            if bytes.reduce(0, { $0 &+ $1 }) & 7 == 0 {
                require(
                    String(reflecting: fromText) == String(reflecting: line),
                    "the String and byte parsers build \(text.debugDescription) differently")
            }
        }
        let isFinal: Bool
        switch line {
        case .ok, .err: isFinal = true
        default: isFinal = false
        }
        require(line.isFinal == isFinal, "isFinal of \(TextReference.caseName(line))")
        if case .unknown(let kept) = line {
            require(kept == text, "an unknown line was changed")
            return
        }
        // A line a client understood formats to a line that parses the same way. (The parser picks the
        // case by the first word, so the same text and not unknown means the same case.)
        let formatted = line.text
        require(!formatted.contains("\n"), "a formatted line holds an LF")
        let again = ServerLine(parsing: Array(formatted.utf8))
        if case .unknown = again {
            require(
                false,
                "\(formatted.debugDescription) from a \(TextReference.caseName(line)) line is not understood")
        }
        require(
            again.text == formatted, "\(formatted.debugDescription) formats as \(again.text.debugDescription)"
        )
        require(
            TextReference.caseName(again) == TextReference.caseName(line),
            "\(formatted.debugDescription) changed its case")
        if case .ok(let verb, let detail) = line {
            // A typed detail formats back to exactly the detail it was read from.
            let typed = OKDetail(verb: verb, detail: detail)
            require(typed.detail == detail, "OK \(verb) detail \(detail.debugDescription) reads as \(typed)")
            require(typed.line.text == formatted, "the typed OK line is \(typed.line.text.debugDescription)")
        }
        if case .err(_, let code, _) = line {
            require(
                ErrorCode(rawValue: code.rawValue) == code, "error code \(code.rawValue) does not round-trip")
        }
    }
}
