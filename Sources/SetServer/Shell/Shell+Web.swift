import Dispatch
import SetProtocol
import SetServerCore
import SetSocket
import SetWeb

/// The browser's way in, on the same port: the first bytes of a connection decide what it speaks.
///
/// The line protocol greets a connection the moment it opens, before the client says anything, but an
/// HTTP client must never receive that greeting. So while HTTP is on, a new connection first waits up
/// to `sniffWindow` for its first bytes: bytes that cannot begin `GET ` (a telnet client's IAC, an early
/// `HELLO`) greet it and hand it to the core at once; `GET ` makes it HTTP; silence until the window
/// ends greets it as before. A browser's request follows the TCP handshake at once, so a short window
/// costs an `nc` user nothing they notice. With `--no-http` there is no window.
///
/// An HTTP connection is the shell's alone until it upgrades: `GET /` gets the page and the connection
/// waits for another request (HTTP/1.1 keep-alive, so that a browser reloads over it rather than over a
/// spare connection it opened beside it, which was greeted at the end of its window), any other request
/// gets its status and is closed, and a head not finished within the registration timeout gets 408.
/// `GET /ws` upgrades, and from then on the connection is a player like any other to the core:
/// each text message in is one line (with the line cap, the rate limit and the journal of any line),
/// each line out is one text frame.
extension Shell {
    /// A new connection: greeted at once, or (while HTTP is on) after its first bytes or its window.
    func admit(_ link: Link) {
        guard configuration.isHTTPEnabled else { return greet(link) }
        link.mode = .sniffing(held: [])
        let now = SystemClock.now().uptime
        let wasEmpty = sniffing.isEmpty
        sniffing.append(link.id, deadline: now + configuration.sniffWindow)
        if wasEmpty { scheduleSniffTimer(now: now) }
    }

    /// Creates the timer that ends sniff windows (started with the shell, while HTTP is on).
    func startSniffTimer() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in self.sniffWindowsEnded() }
        timer.resume()
        sniffTimer = timer
    }

    private func scheduleSniffTimer(now: Double) {
        guard let deadline = sniffing.nextDeadline else { return }
        let delay = max(0, deadline - now)
        sniffTimer?.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .milliseconds(5))
    }

    /// Greets the connections that stayed silent through their window (with what they held, if their
    /// first bytes were only the start of `GET `).
    private func sniffWindowsEnded() {
        let now = SystemClock.now().uptime
        for id in sniffing.removeExpired(at: now) {
            guard let link = links[id], link.channel.state == .open, case .sniffing(let held) = link.mode
            else {
                continue
            }
            greet(link, held: held)
        }
        scheduleSniffTimer(now: now)
    }

    /// Hands the connection to the core as a line protocol client: the greeting, then what it sent.
    private func greet(_ link: Link, held: [UInt8] = []) {
        link.mode = .lineProtocol
        apply(core.connect(link.id, peer: link.peer, at: SystemClock.now()))
        if !held.isEmpty, link.channel.state == .open { held.withUnsafeBytes { received($0, on: link) } }
    }

    /// Bytes on a connection that is not (yet) the line protocol.
    func receivedWeb(_ bytes: UnsafeRawBufferPointer, on link: Link) {
        switch link.mode {
        case .sniffing(let held):
            let all = held + bytes
            switch FirstBytes.classify(all) {
            case .undecided:
                link.mode = .sniffing(held: all)
            case .lineProtocol:
                greet(link, held: all)
            case .http:
                link.mode = .httpHead(HTTPHeadParser(), since: SystemClock.now().uptime)
                // The core's --max-clients does not see connections before they upgrade; slow heads
                // could hold descriptors past it for a whole registration timeout.
                guard links.count - core.clientCount <= configuration.maxClients else {
                    return respond(
                        WebRouter.reply(
                            toFailure: .serviceUnavailable, "too many connections; try again later"),
                        to: nil, on: link)
                }
                receivedHead(all, on: link)
            }
        case .httpHead:
            receivedHead(Array(bytes), on: link)
        case .webSocket:
            receivedFrames(Array(bytes), on: link)
        case .httpReply, .lineProtocol:
            break
        }
    }

    // MARK: HTTP

    private func receivedHead(_ bytes: [UInt8], on link: Link) {
        guard case .httpHead(var parser, var since) = link.mode else { return }
        // A persistent connection's next head is timed from its first bytes, not from the idle wait.
        if parser.bufferedCount == 0 { since = SystemClock.now().uptime }
        link.mode = .httpReply  // the parser is taken out, so appending does not copy its buffer
        switch parser.append(bytes) {
        case .incomplete:
            link.mode = .httpHead(parser, since: since)
        case .failed(let status, let detail):
            respond(WebRouter.reply(toFailure: status, detail), to: nil, on: link)
        case .complete(let head, let rest):
            let reply = WebRouter.reply(to: head, page: WebPageBytes.html)
            respond(reply, to: head, on: link)
            if reply.keepsAlive, link.channel.state == .open {
                // Waits for the next request; one already sent behind this one (pipelined) is read now.
                link.mode = .httpHead(HTTPHeadParser(), since: SystemClock.now().uptime)
                if !rest.isEmpty { receivedHead(rest, on: link) }
            }
            guard reply.isUpgrade else { return }
            link.mode = .webSocket(WebSocketDecoder(maximumMessageLength: WebLimits.maximumMessageLength))
            // A player from now on: the core greets it, in a text frame after the 101.
            apply(core.connect(link.id, peer: link.peer, at: SystemClock.now()))
            if !rest.isEmpty, link.channel.state == .open { receivedFrames(rest, on: link) }
        }
    }

    /// Writes an HTTP response; anything but an upgrade or a persistent reply closes the connection once
    /// it is written.
    private func respond(_ reply: WebRouter.Reply, to head: HTTPRequestHead?, on link: Link) {
        let path = head.map { String(decoding: $0.path.prefix(64), as: UTF8.self) } ?? "-"
        logger.log(
            .info, "http",
            [
                ("id", "\(link.id)"), ("peer", link.peer), ("path", path),
                ("status", "\(reply.response.status.code)"),
            ])
        link.channel.enqueue(reply.response.bytes)
        if reply.isUpgrade {
            markForFlush(link)
        } else if reply.keepsAlive {
            // Requests pipelined faster than their pages are read are held no more than a player's lines.
            guard link.channel.pendingOutput <= ShellLimits.maximumOutputBytes else {
                logger.log(
                    .warn, "drop", [("id", "\(link.id)"), ("peer", link.peer), ("reason", "pages not read")])
                return link.channel.close()
            }
            markForFlush(link)
        } else {
            link.mode = .httpReply
            link.closingSince = SystemClock.now().uptime
            link.channel.finish()
        }
    }

    /// Answers 408 to heads older than the registration timeout: a slow head is held no longer than a
    /// silent line protocol client. A persistent connection with no request begun is closed without a
    /// word after twice that: it must outlive the spare connection a browser opened beside it (greeted,
    /// then closed at the registration timeout), or the browser's next request would go to the spare.
    func expireHTTPHeads(at now: Instant) {
        for link in links.values {
            guard case .httpHead(let parser, let since) = link.mode, link.channel.state == .open else {
                continue
            }
            if parser.bufferedCount == 0 {
                guard now.uptime - since > 2 * configuration.registrationTimeout else { continue }
                link.mode = .httpReply
                link.closingSince = now.uptime
                link.channel.finish()
                continue
            }
            guard now.uptime - since > configuration.registrationTimeout else { continue }
            respond(
                WebRouter.reply(
                    toFailure: .requestTimeout,
                    "no complete request within \(Int(configuration.registrationTimeout)) s"),
                to: nil, on: link)
        }
    }

    // MARK: WebSocket

    private func receivedFrames(_ bytes: [UInt8], on link: Link) {
        guard case .webSocket(var decoder) = link.mode else { return }
        link.mode = .httpReply  // taken out while it is fed, so it is not copied
        let events = decoder.append(bytes)
        link.mode = .webSocket(decoder)
        for event in events {
            guard link.channel.state == .open else { return }
            switch event {
            case .text(let message):
                switch WebSocketLines.line(fromMessage: message, maximumLength: LineFramer.maximumLineLength)
                {
                case .line(let line):
                    apply(core.handle(.line(line), from: link.id, at: SystemClock.now()))
                case .tooLong:
                    closeWebSocket(
                        link, .messageTooBig, "a line is at most \(LineFramer.maximumLineLength) bytes")
                case .lineBreak:
                    closeWebSocket(link, .policyViolation, "one line per message")
                }
            case .ping(let payload):
                link.channel.enqueue(WebSocketFrame.make(.pong, payload))
                markForFlush(link)
            case .pong:
                break
            case .close(let code, _):
                // The closing handshake: echo the code (or an empty close), then close the TCP connection.
                closeWebSocket(
                    link, frame: code.map { WebSocketFrame.close($0) } ?? WebSocketFrame.make(.close, []),
                    reason: "websocket closed by the client")
            case .failure(let code, let reason):
                closeWebSocket(link, code, reason)
            }
        }
    }

    private func closeWebSocket(_ link: Link, _ code: WebSocketCloseCode, _ reason: String) {
        logger.log(.info, "websocket-error", [("id", "\(link.id)"), ("code", "\(code)"), ("reason", reason)])
        closeWebSocket(
            link, frame: WebSocketFrame.close(code, reason: reason), reason: "websocket \(code): \(reason)")
    }

    /// Sends the close frame, closes once it is written, and tells the core the player has gone (as if
    /// an `nc` client had closed: a seat waits out its grace).
    private func closeWebSocket(_ link: Link, frame: [UInt8], reason: String) {
        link.channel.enqueue(frame)
        link.closingSince = SystemClock.now().uptime
        link.channel.finish()
        connectionLost(link.id, reason: reason)
    }
}

/// Limits of the browser's way in.
enum WebLimits {
    /// The longest WebSocket message: a protocol line (the same cap as over TCP) and the CRLF a client
    /// may end it with, which is dropped.
    static let maximumMessageLength = LineFramer.maximumLineLength + 2
}

/// The page's bytes, made once.
enum WebPageBytes {
    static let html = Array(WebPage.html.utf8)
}
