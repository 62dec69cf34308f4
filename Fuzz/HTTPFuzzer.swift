// libFuzzer target for the HTTP side: the request-head parser, routing and the handshake, and the
// first-bytes verdict.
//
// Input layout: byte 0 seeds the chunk sizes; the rest is the byte stream a client sends (its first bytes
// decide HTTP or not, as on the server; the parser sees it either way).

import SetWeb

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func httpFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    HTTPFuzzer.run(fuzzBytes(data, size))
    return 0
}

enum HTTPFuzzer {
    static let chunkLimits = [1, 2, 5, 17, 100, 1000, 4000, 9000]
    static let page = Array("<!doctype html><title>fuzz</title>".utf8)

    static func run(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let chunkByte = reader.byte()
        let stream = Array(reader.remaining)

        let verdict = FirstBytes.classify(stream)
        let isGet = stream.starts(with: FirstBytes.httpPrefix)
        require((verdict == .http) == isGet, "verdict \(verdict) for a stream starting GET: \(isGet)")
        require(
            verdict != .undecided || (stream.count < 4 && FirstBytes.httpPrefix.starts(with: stream)),
            "undecided on \(stream.prefix(8))")

        var whole = HTTPHeadParser()
        let wholeProgress = whole.append(stream)
        var chunked = HTTPHeadParser()
        var chunkedProgress = HTTPHeadParser.Progress.incomplete
        var random = FuzzRandom(seed: UInt64(chunkByte) << 32 | UInt64(stream.count))
        let limit = chunkLimits[Int(chunkByte & 7)]
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + random.next(in: 1...limit))
            // The piece as a slice of the stream: a new array for each piece (thousands, one byte each,
            // for a long input) was a tenth of this target's time in ASan's allocator.
            chunkedProgress = chunked.append(stream[start..<end])
            require(
                chunked.bufferedCount <= HTTPHeadParser.maximumHeadLength + limit,
                "the parser holds \(chunked.bufferedCount) bytes")
            start = end
        }
        // In pieces the rest is whatever followed the head in its piece and later pieces are not given;
        // compare heads and failures, and the rest only for the whole stream.
        switch (wholeProgress, chunkedProgress) {
        case (.incomplete, .incomplete): break
        case (.failed(let a, _), .failed(let b, _)): require(a == b, "whole \(a) != chunked \(b)")
        case (.complete(let a, let rest), .complete(let b, _)):
            require(a == b, "heads differ")
            require(
                stream.count >= rest.count && Array(stream.suffix(rest.count)) == rest, "rest is not the tail"
            )
            let headLength = stream.count - rest.count
            require(headLength <= HTTPHeadParser.maximumHeadLength, "a head of \(headLength) bytes accepted")
            check(a)
        default:
            require(false, "whole \(wholeProgress) != chunked \(chunkedProgress)")
        }
        if stream.count > HTTPHeadParser.maximumHeadLength, case .incomplete = wholeProgress {
            require(false, "\(stream.count) bytes and still incomplete")
        }
    }

    /// What any parsed head must satisfy, and what the router makes of it.
    static func check(_ head: HTTPRequestHead) {
        require(head.minorVersion == 0 || head.minorVersion == 1, "HTTP/1.\(head.minorVersion)")
        for field in head.fields {
            require(!field.name.isEmpty, "an empty field name")
            require(
                !field.name.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }),
                "a field name with \(field.name)")
            require(
                !field.value.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }), "a line end in a value"
            )
            require(field.value.first != 0x20 && field.value.last != 0x20, "untrimmed value")
        }
        let reply = WebRouter.reply(to: head, page: page)
        let bytes = reply.response.bytes
        require(bytes.starts(with: Array("HTTP/1.1 ".utf8)), "a response without a status line")
        if reply.isUpgrade {
            require(
                head.path == Array("/ws".utf8) && head.method == Array("GET".utf8),
                "upgrade of \(head.target)")
            let key = head.value("Sec-WebSocket-Key") ?? []
            require(Base64.decode(key)?.count == 16, "upgrade with a bad key")
            require(
                reply.response.value("Sec-WebSocket-Accept") == WebSocketHandshake.accept(forKey: key),
                "wrong accept")
        } else if reply.response.status == .ok {
            require(reply.response.body == page && head.path == Array("/".utf8), "200 for \(head.target)")
        }
    }
}
