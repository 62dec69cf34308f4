import SetProtocol
import SetServerCore
import SetWeb

/// What a connection's bytes are, by what it speaks: the first bytes decide (sniffing), then lines
/// (through the telnet filter and the line framer), HTTP heads, or WebSocket frames. Every unit of input
/// — a command, a blank line, a line over the cap, an HTTP request, a WebSocket frame of any kind —
/// pays the same rate limit.
extension Engine {
    func receive(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        switch connection.mode {
        case .sniffing(let held):
            sniff(held + bytes, on: connection)
        case .refused(let text):
            var input = Array(bytes)
            // A trusted proxy's header goes first; the client's bytes after it choose the protocol.
            if connection.awaitsProxyHeader, case .header(let header, let length) = ProxyHeader.parse(input) {
                connection.awaitsProxyHeader = false
                if let source = header.source {
                    connection.sender = source
                    connection.peer = source
                }
                input.removeFirst(length)
                if input.isEmpty { return }
            }
            // Told in the protocol its first bytes speak.
            if FirstBytes.classify(input) == .lineProtocol {
                connection.mode = .lineProtocol
                queue(lineBytes: ProtocolError(nil, .full, text).line, on: connection)
                finish(connection)
            } else {
                respond(WebRouter.reply(toFailure: .serviceUnavailable, text), to: nil, on: connection)
            }
        case .lineProtocol:
            if connection.checksFirstBytes {
                connection.checksFirstBytes = false
                let signature = ProxyHeader.signature(of: bytes)
                if signature == .version1 || signature == .version2 {
                    return rejectUntrustedHeader(on: connection)
                }
            }
            receiveLines(bytes, on: connection)
        case .httpHead:
            receiveHeads(Array(bytes), on: connection)
        case .webSocket:
            receiveFrames(Array(bytes), on: connection)
        case .closing:
            break
        }
    }

    /// A new connection's first bytes so far: a trusted proxy's PROXY header, then whether the client
    /// speaks HTTP (`GET `) or the line protocol. A PROXY header where none may be (from a peer not
    /// trusted, or a second one) closes the connection.
    private func sniff(_ all: [UInt8], on connection: Connection) {
        if connection.awaitsProxyHeader {
            switch ProxyHeader.parse(all) {
            case .incomplete:
                connection.mode = .sniffing(held: all)
                return
            case .invalid(let reason):
                return rejectProxyHeader(on: connection, reason: reason)
            case .header(let header, let length):
                return accept(header, length: length, of: all, on: connection)
            case .notAHeader:
                connection.awaitsProxyHeader = false
            }
        }
        switch ProxyHeader.signature(of: all) {
        case .version1, .version2:
            return rejectUntrustedHeader(on: connection)
        case .partial:
            connection.mode = .sniffing(held: all)
            return
        case .none:
            break
        }
        // With the page off only a trusted proxy's connection sniffs, and GET is then a command.
        switch configuration.isHTTPEnabled ? FirstBytes.classify(all) : .lineProtocol {
        case .undecided:
            connection.mode = .sniffing(held: all)
        case .lineProtocol:
            // From a trusted proxy without a header, it is the proxy's own (an operator's nc there).
            guard place(connection, as: connection.sender) else {
                return refuseClient(connection, bytes: all)
            }
            greet(connection)
            all.withUnsafeBytes { receiveLines($0, on: connection) }
        case .http:
            // A trusted proxy's request is placed by its forwarding fields (``receiveHeads(_:on:)``).
            connection.mode = .httpHead(HTTPHeadParser(), since: now.uptime)
            watched.insert(connection.id)
            receiveHeads(all, on: connection)
        }
    }

    /// A trusted proxy's PROXY header: the connection is its client's from now on (counted under its
    /// address, refused if that address is full), and the client's own first bytes, after the header,
    /// are sniffed in a window of their own, as if it had just connected.
    private func accept(_ header: ProxyHeader, length: Int, of all: [UInt8], on connection: Connection) {
        connection.awaitsProxyHeader = false
        if let source = header.source { connection.sender = source }
        emit(
            .log(
                LogEvent(
                    level: .debug, name: "proxy-header",
                    fields: [
                        ("id", "\(connection.id)"), ("via", connection.socketPeer.text),
                        ("client", header.source?.text ?? "-"), ("version", "\(header.version)"),
                    ])))
        let rest = Array(all[length...])
        guard place(connection, as: connection.sender) else { return refuseClient(connection, bytes: rest) }
        connection.mode = .sniffing(held: [])
        if configuration.isHTTPEnabled {
            armSniffWindow(connection)
        } else {
            // The server speaks first with the page off, once it knows whom to.
            connection.checksFirstBytes = true
            greet(connection)
        }
        if !rest.isEmpty { rest.withUnsafeBytes { receive($0, on: connection) } }
    }

    /// A trusted proxy's header that breaks the specification: the specification says to abort.
    func rejectProxyHeader(on connection: Connection, reason: String) {
        emit(
            .log(
                LogEvent(
                    level: .warn, name: "proxy-header-invalid",
                    fields: [("id", "\(connection.id)"), ("peer", connection.peer.text), ("reason", reason)]))
        )
        abort(connection, reason: "invalid PROXY header")
    }

    /// A PROXY header from a peer that is not a trusted proxy (or a second one behind a proxy's): it would
    /// let anyone choose the address every limit counts, so the connection is closed without a word.
    private func rejectUntrustedHeader(on connection: Connection) {
        if let count = untrustedHeaders.note(at: now.uptime) {
            emit(
                .log(
                    LogEvent(
                        level: .warn, name: "proxy-header-refused",
                        fields: [
                            ("id", "\(connection.id)"), ("peer", connection.peer.text),
                            ("reason", "a PROXY header from a peer not trusted (--trust-proxy)"),
                            ("refused", "\(count)"),
                        ])))
        }
        abort(connection, reason: "PROXY header from a peer not trusted")
    }

    private func abort(_ connection: Connection, reason: String) {
        finish(connection)
        if core.isConnected(connection.id) {
            carryOut(core.disconnected(connection.id, reason: reason, at: now))
        }
    }

    // MARK: Lines

    /// Telnet's commands come out first (``TelnetFilter``), and its answers are queued before anything
    /// the core answers to the same bytes; the rest is cut into lines.
    private func receiveLines(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        var replies: [UInt8] = []
        // One array for every read's lines, kept between reads (swapped out while in use, as
        // `commandEffects` is): a new one grew by doubling, a malloc per doubling, each read.
        var frames: [LineFramer.Frame] = []
        swap(&frames, &readFrames)
        defer {
            frames.removeAll(keepingCapacity: frames.capacity <= 256)
            swap(&frames, &readFrames)
        }
        connection.telnet.filter(bytes, replies: &replies) { data in
            connection.framer.append(data) { frames.append($0) }
        }
        if !replies.isEmpty {
            emit(
                .log(
                    LogEvent(
                        level: .debug, name: "telnet",
                        fields: [("id", "\(connection.id)"), ("refused", "\(replies.count / 3)")])))
            queue(replies, on: connection)
        }
        handle(frames, on: connection)
    }

    /// Handles a connection's lines in order until its room has queued its pass's budget of lines
    /// (``EngineLimits/linesPerRoomPerPass``); the rest wait for ``passEnded(at:)``. Lines that arrive
    /// while some wait go behind them: a connection's commands are always handled in the order sent.
    func handle(_ frames: [LineFramer.Frame], on connection: Connection) {
        var frames = frames
        var isBudgeted = true
        if let waiting = deferredFrames[connection.id] {
            guard waiting.count + frames.count > EngineLimits.maximumDeferredLines else {
                deferredFrames[connection.id] = waiting + frames
                return
            }
            // Too much held for one connection: handled now, budget or not (see the limit).
            deferredFrames[connection.id] = nil
            frames = waiting + frames
            isBudgeted = false
        }
        // The connection's room, and the lines its room queued this pass (counted here, and stored when
        // the room changes or the loop ends): found again only after a line that may have moved someone
        // (a lookup and two hashes a line, otherwise).
        var room = core.roomIdentity(of: connection.id)
        var version = core.listenersVersion
        var roomLines = room.map { passLines[$0, default: 0] } ?? 0
        defer { if let room { passLines[room] = roomLines } }
        for index in frames.indices {
            guard connection.isReading else { return }
            if isBudgeted, room != nil, roomLines >= EngineLimits.linesPerRoomPerPass {
                deferredFrames[connection.id] = Array(frames[index...])
                deferredOrder.append(connection.id)
                return
            }
            let before = queuedWriteCount
            switch frames[index] {
            case .tooLong:
                guard admit(on: connection, verb: nil) else {
                    countJunk(true, on: connection)
                    continue
                }
                let error = ProtocolError(
                    nil, .tooLong,
                    "a line is at most \(LineFramer.maximumLineLength) bytes; the rest of it was discarded")
                queue(lineBytes: error.line, on: connection)
                countJunk(true, on: connection)
            case .line(let line):
                receiveLine(line, on: connection)
            }
            let queued = queuedWriteCount - before
            guard core.listenersVersion != version else {
                roomLines += queued
                continue
            }
            // Counted under the room the line was sent in, or else the one it took the connection to.
            version = core.listenersVersion
            let after = core.roomIdentity(of: connection.id)
            if room == nil, let after { roomLines = passLines[after, default: 0] }
            roomLines += queued
            if let counted = room ?? after { passLines[counted] = roomLines }
            room = after
            roomLines = after.map { passLines[$0, default: 0] } ?? 0
        }
    }

    /// One line, from a line-protocol client or a WebSocket message. A blank line is no command (people
    /// press Enter in `nc` by habit) and no activity, but it pays the rate limit like one.
    func receiveLine(_ line: [UInt8], on connection: Connection) {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            _ = admit(on: connection, verb: nil)
            return
        }
        let parsed = Command.parse(line)
        let command = try? parsed.get()
        if admit(on: connection, verb: command?.verb, cost: command.map(Self.cost(of:)) ?? 1) {
            // One array for every command's effects, kept between commands (swapped out while in use,
            // so that a call that reaches here again meanwhile gets an array of its own).
            var effects: [Effect] = []
            swap(&effects, &commandEffects)
            core.handle(parsed, from: connection.id, at: now, into: &effects)
            carryOut(moving: &effects)
            effects.removeAll(keepingCapacity: effects.capacity <= 256)
            swap(&effects, &commandEffects)
        }
        // A known verb with bad arguments is a person's mistake; no verb at all, or no text, is junk.
        if case .failure(let error) = parsed {
            countJunk(error.code == .unknown || error.code == .badUTF8, on: connection)
        } else {
            countJunk(false, on: connection)
        }
    }

    /// Counts a line that was no command (`isJunk`) or resets the count; the line that reaches
    /// ``EngineLimits/junkLinesBeforeClose`` has had its answer, and the connection gets `BYE junk`.
    private func countJunk(_ isJunk: Bool, on connection: Connection) {
        guard isJunk else {
            connection.junkLines = 0
            return
        }
        guard connection.isReading else { return }
        connection.junkLines += 1
        guard connection.junkLines >= EngineLimits.junkLinesBeforeClose else { return }
        cutOff(connection, reason: "junk")
    }

    /// Closes a connection the server will not read any more of: a warning named `reason`, `BYE
    /// <reason>` (a WebSocket: close `1008`), and its player goes away as if the connection had dropped.
    private func cutOff(_ connection: Connection, reason: String) {
        emit(
            .log(
                LogEvent(
                    level: .warn, name: reason,
                    fields: [("id", "\(connection.id)"), ("peer", connection.peer.text)])))
        if connection.isWebSocket {
            closeWebSocket(connection, .policyViolation, reason)
        } else {
            queue(lineBytes: .bye(reason), on: connection)
            finish(connection)
            if core.isConnected(connection.id) {
                carryOut(core.disconnected(connection.id, reason: reason, at: now))
            }
        }
    }

    /// What a command costs against the rate limit, in commands: listing every room, or a history of
    /// many games, is work for the server that a `PING` is not.
    static func cost(of command: Command) -> Double {
        switch command {
        case .rooms: return EngineLimits.roomsCost
        case .history: return EngineLimits.historyCost
        default: return 1
        }
    }

    /// Takes `cost` from the connection's rate limit; over it, answers `SLOWDOWN` (a line client, a
    /// WebSocket) or 429 (HTTP), and closes a connection that keeps flooding.
    func admit(on connection: Connection, verb: Verb?, cost: Double = 1) -> Bool {
        guard !connection.limiter.admit(at: now.uptime, cost: cost, under: commandLimit) else { return true }
        if case .httpHead = connection.mode {
            respond(
                WebRouter.reply(toFailure: .tooManyRequests, "more requests than the rate limit"), to: nil,
                on: connection)
            return false
        }
        let rate = Int(commandLimit.rate)
        queue(
            lineBytes: ProtocolError(verb, .slowDown, "more than \(rate) commands a second; wait a moment")
                .line,
            on: connection)
        if connection.limiter.isFlooding { cutOff(connection, reason: "flood") }
        return false
    }

    // MARK: HTTP

    /// Takes one page request from the address's bucket; over it, `429` and the close.
    private func admitPage(from connection: Connection) -> Bool {
        guard configuration.commandsPerSecond > 0 else { return true }
        let key = connection.peer.key
        var bucket =
            pageBuckets[key]
            ?? RateLimiter(Self.pageLimit)
        let admitted = bucket.admit(at: now.uptime, under: Self.pageLimit)
        pageBuckets[key] = bucket
        guard !admitted else { return true }
        respond(
            WebRouter.reply(
                toFailure: .tooManyRequests, "more page requests from your address than the rate limit"),
            to: nil, on: connection)
        return false
    }

    /// Request heads, one after another on a persistent connection (pipelined ones included).
    private func receiveHeads(_ bytes: [UInt8], on connection: Connection) {
        var input = bytes
        while case .httpHead(var parser, var since) = connection.mode {
            // A persistent connection's next head is timed from its first bytes, not from the wait.
            if parser.bufferedCount == 0 { since = now.uptime }
            connection.mode = .closing  // the parser is taken out, so appending does not copy its buffer
            switch parser.append(input) {
            case .incomplete:
                connection.mode = .httpHead(parser, since: since)
                return
            case .failed(let status, let detail):
                connection.mode = .httpHead(parser, since: since)
                respond(WebRouter.reply(toFailure: status, detail), to: nil, on: connection)
                return
            case .complete(let head, let rest):
                connection.mode = .httpHead(HTTPHeadParser(), since: now.uptime)
                // A trusted proxy names the client of each request (a proxy may reuse a connection for
                // another client's); counted under it before it pays anything.
                if isTrusted(connection.sender) {
                    let client = ForwardedFor.client(
                        of: head, behind: connection.sender, isTrusted: isTrustedAddress)
                    guard place(connection, as: client) else {
                        let text = addressFullText(client) ?? "too many connections from your address"
                        logRefusal(of: client, reason: "max-per-ip")
                        respond(
                            WebRouter.reply(toFailure: .serviceUnavailable, text), to: head, on: connection)
                        return
                    }
                }
                guard admit(on: connection, verb: nil), admitPage(from: connection) else { return }
                let reply =
                    (WebRouter.isSameOrigin(head, allowing: allowedOrigins) ? gamesReply(to: head) : nil)
                    ?? WebRouter.reply(
                        to: head, page: page, tvPage: tvPage, publicURL: configuration.publicURL,
                        allowedOrigins: allowedOrigins)
                respond(reply, to: head, on: connection)
                // A reply that took the connection over its cap dropped it: nothing more happens on it.
                guard connection.isReading else { return }
                if reply.isUpgrade {
                    connection.mode = .webSocket(
                        WebSocketDecoder(maximumMessageLength: EngineLimits.maximumMessageLength))
                    watched.remove(connection.id)
                    // A player from now on: the core greets it, in a text frame after the 101.
                    greet(connection)
                    if !rest.isEmpty, connection.isReading { receiveFrames(rest, on: connection) }
                    return
                }
                input = rest
                if input.isEmpty { return }
            }
        }
    }

    /// Writes an HTTP response; anything but an upgrade or a persistent reply closes the connection once
    /// it is written.
    func respond(_ reply: WebRouter.Reply, to head: HTTPRequestHead?, on connection: Connection) {
        let path = head.map { String(decoding: $0.path.prefix(64), as: UTF8.self) } ?? "-"
        emit(
            .log(
                LogEvent(
                    level: .info, name: "http",
                    fields: [
                        ("id", "\(connection.id)"), ("peer", connection.peer.text), ("path", path),
                        ("status", "\(reply.response.status.code)"),
                    ])))
        queue(reply.response.bytes, on: connection)
        // Requests pipelined faster than their pages are read were dropped by the output cap.
        guard connection.isReading else { return }
        if !reply.isUpgrade, !reply.keepsAlive { finish(connection) }
    }

    // MARK: WebSocket

    private func receiveFrames(_ bytes: [UInt8], on connection: Connection) {
        guard case .webSocket(var decoder) = connection.mode else { return }
        connection.mode = .closing  // taken out while it is fed, so it is not copied
        var events: [WebSocketDecoder.Event] = []
        decoder.append(bytes) { events.append($0) }
        connection.mode = .webSocket(decoder)
        for event in events {
            guard connection.isReading, connection.isWebSocket else { return }
            switch event {
            case .text(let message):
                switch WebSocketLines.line(fromMessage: message, maximumLength: LineFramer.maximumLineLength)
                {
                case .line(let line):
                    receiveLine(line, on: connection)
                case .tooLong:
                    closeWebSocket(
                        connection, .messageTooBig, "a line is at most \(LineFramer.maximumLineLength) bytes")
                case .lineBreak:
                    closeWebSocket(connection, .policyViolation, "one line per message")
                }
            case .ping(let payload):
                // A pong is output like any other, under the same cap, and a ping pays the rate limit.
                guard admit(on: connection, verb: nil) else { continue }
                queue(WebSocketFrame.make(.pong, payload), on: connection)
            case .pong:
                _ = admit(on: connection, verb: nil)
            case .close(let code, _):
                // The closing handshake: echo the code (or an empty close), then close the connection.
                closeWebSocket(
                    connection,
                    frame: code.map { WebSocketFrame.close($0) } ?? WebSocketFrame.make(.close, []),
                    reason: "websocket closed by the client")
            case .failure(let code, let reason):
                closeWebSocket(connection, code, reason)
            }
        }
    }

    func closeWebSocket(_ connection: Connection, _ code: WebSocketCloseCode, _ reason: String) {
        emit(
            .log(
                LogEvent(
                    level: .info, name: "websocket-error",
                    fields: [("id", "\(connection.id)"), ("code", "\(code)"), ("reason", reason)])))
        closeWebSocket(
            connection, frame: WebSocketFrame.close(code, reason: reason),
            reason: "websocket \(code): \(reason)")
    }

    /// Sends the close frame, closes once it is written, and tells the core the player has gone (as if
    /// an `nc` client had closed: a seat waits out its grace).
    private func closeWebSocket(_ connection: Connection, frame: [UInt8], reason: String) {
        queue(frame, on: connection)
        finish(connection)
        if core.isConnected(connection.id) {
            carryOut(core.disconnected(connection.id, reason: reason, at: now))
        }
    }
}
