import Dispatch
import SetProtocol
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// The `set-cli` program: a ``ClientSession`` wired to a ``ServerConnection``, the keyboard, the
/// signals, and either the full screen or one printed line per update.
///
/// Ownership rule: all state lives on `queue`. The socket, the keyboard and the signals are Dispatch
/// sources on that queue, so a server update and a keystroke are never handled at the same time, and
/// each is drawn as soon as it is handled.
public final class TerminalClient: @unchecked Sendable {
    /// How long `/quit` waits for the server's `OK QUIT` before leaving anyway.
    static let quitTimeout = 1.5
    /// The longest wait between two reconnection attempts, in seconds.
    static let maximumReconnectDelay = 5.0
    /// How long newly dealt cards stay marked, in seconds: long enough to see where they went.
    static let freshSeconds = 2.0
    /// How long a command's result stays on the status line, in seconds, before the hint comes back.
    static let statusSeconds = 8.0
    /// How long a new connection may stay silent before set-cli says the far end is not setd: setd
    /// greets within its 150 ms sniff window, so anything near this is something else (an HTTP server
    /// waits for a request, a wrong port may never speak).
    static let greetingTimeout = 5.0

    private let options: CLIOptions
    private let isFullScreen: Bool
    private let queue = DispatchQueue(label: "set-cli")
    private var session: ClientSession
    private var ui = TerminalUI()
    private var connection: ServerConnection?
    private var connectionNumber = 0
    private var hasConnected = false
    /// Whether the current connection's first line was setd's greeting.
    private var isGreeted = false
    private var reconnectAttempt = 0
    private var writer = ScreenWriter()
    private var size = TerminalSize(columns: 80, rows: 24)
    private var decoder = KeyDecoder()
    private var inputFramer = LineFramer(maximumLineLength: LineEditor.maximumBytes)
    private var scriptLines: [String] = []
    private var isInputClosed = false
    private var sources: [DispatchSourceProtocol] = []
    private var isRenderScheduled = false
    private var shownRevision = 0
    /// The room as last drawn: typed letters name its cards, whatever arrived since.
    private var shownView = GameView()
    private var selection = ClaimSelection()
    private var freshUntil = 0.0
    private var statusShownAt = 0.0
    private var gameStartedAt: Double?
    private var ticker: DispatchSourceTimer?
    private var isExiting = false
    private let tokens: TokenStore?
    private var tokenNote: String?

    private init(options: CLIOptions, isFullScreen: Bool, tokens: TokenStore?) {
        self.options = options
        self.isFullScreen = isFullScreen
        self.tokens = tokens
        var token: String?
        switch tokens?.load(host: options.host, port: options.port, name: options.name) {
        case .success(let kept): token = kept
        case .failure(let failure): tokenNote = "not using the kept seat: \(failure)"
        case nil: break
        }
        session = ClientSession(
            name: options.name, room: options.room, game: options.game, options: options.options,
            token: token,
            watching: options.isWatching)
    }

    /// Runs `set-cli` with the process's arguments and environment; never returns.
    public static func main() -> Never {
        var environment: [String: String] = [:]
        for key in ["USER", "LOGNAME", "NO_COLOR", "XDG_STATE_HOME", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        if environment["USER"] == nil { environment["USER"] = environment["LOGNAME"] }
        var options: CLIOptions
        do {
            options = try CLIOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
        } catch {
            printError("set-cli: \(error)\n\n\(CLIOptions.usage)")
            exit(2)
        }
        if options.wantsHelp {
            TerminalDevice.write(CLIOptions.usage + "\n")
            exit(0)
        }
        if options.wantsVersion {
            TerminalDevice.write(Release.banner("set-cli") + "\n")
            exit(0)
        }
        Socket.ignoreBrokenPipes()
        if options.replayID != nil {
            exit(
                ReplayViewer.run(
                    options,
                    isTerminal: TerminalDevice.isTerminal(STDIN_FILENO)
                        && TerminalDevice.isTerminal(STDOUT_FILENO)))
        }
        if options.isFinding {
            do {
                options = try LANSearch.choose(
                    options, readLine: LANSearch.readAnswer, write: { TerminalDevice.write($0) })
            } catch {
                printError("set-cli: \(error)")
                exit(1)
            }
        }
        let isFullScreen =
            !options.isPlain && TerminalDevice.isTerminal(STDIN_FILENO)
            && TerminalDevice.isTerminal(STDOUT_FILENO)
        let client = TerminalClient(
            options: options, isFullScreen: isFullScreen,
            tokens: TokenStore.standard(environment: environment))
        client.queue.async { client.start() }
        dispatchMain()
    }

    private static func printError(_ text: String) {
        TerminalDevice.write(text + "\n", to: STDERR_FILENO)
    }

    // MARK: Start and stop

    private func start() {
        for number in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [self] in received(signal: number) }
            source.resume()
            sources.append(source)
        }
        if let tokenNote { handle([.event(.problem(tokenNote))]) }
        connect()
    }

    /// Once a second: the clock moves, marks of new cards and old status lines expire.
    private func startTicker() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [self] in scheduleRender() }
        timer.resume()
        ticker = timer
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The wall clock in Unix milliseconds, for the game clock: the server says when the game was dealt
    /// in its own Unix time (`STARTED`).
    private static func wallMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }

    private func received(signal number: Int32) {
        if number == SIGWINCH {
            resized()
        } else {
            quit()
        }
    }

    /// Says `QUIT` (which frees the seat at once) and leaves when the server confirms, or soon anyway.
    private func quit() {
        guard !isExiting else { return }
        isExiting = true
        handle(session.perform(.quit, revision: shownRevision))
        queue.asyncAfter(deadline: .now() + Self.quitTimeout) { [self] in leave(0) }
    }

    /// Puts the terminal back and ends the process.
    ///
    /// `_exit`, not `exit`: everything was written with `write(2)`, so there is nothing to flush, and
    /// tearing the runtime down under Dispatch's running threads only risks a crash on the way out.
    private func leave(_ status: Int32, message: String? = nil) -> Never {
        TerminalDevice.restore()
        if let message { Self.printError(message) }
        _exit(status)
    }

    // MARK: Connection

    private func connect() {
        connectionNumber += 1
        let number = connectionNumber
        let connection = ServerConnection(queue: queue) { [weak self] event in
            self?.connectionEvent(event, number: number)
        }
        self.connection = connection
        connection.open(host: options.host, port: options.port)
    }

    private func connectionEvent(_ event: ServerConnection.Event, number: Int) {
        guard number == connectionNumber else { return }
        switch event {
        case .connected:
            isGreeted = false
            // Nothing is shown as connected until setd greets: a port that is something else (or
            // nothing that speaks) is said so and set-cli ends, instead of a silent screen.
            queue.asyncAfter(deadline: .now() + Self.greetingTimeout) { [self] in
                guard number == connectionNumber, connection != nil, !isGreeted else { return }
                leave(
                    1,
                    message: "set-cli: \(options.host):\(options.port) said nothing within "
                        + "\(Int(Self.greetingTimeout)) s; it is not a setd server (setd greets at once "
                        + "with SETD 1 …). Check --host and --port.")
            }
        case .line(let line) where !isGreeted:
            if case .err(_, .full, let text) = line {
                leave(
                    1,
                    message:
                        "set-cli: the setd at \(options.host):\(options.port) is full: \(TextRules.sanitized(text))"
                )
            }
            guard case .greeting = line else {
                let said = String(TextRules.sanitized(line.text).prefix(60))
                leave(
                    1,
                    message: "set-cli: \(options.host):\(options.port) is not a setd server: it said "
                        + "'\(said)' (setd greets with SETD 1 …). Check --host and --port.")
            }
            isGreeted = true
            if !hasConnected {
                hasConnected = true
                startInput()
                if isFullScreen { startTicker() }
            }
            reconnectAttempt = 0
            session.connectionOpened()
            ui.connection = .online
            if !isFullScreen { printLine("connected to \(options.host):\(options.port)") }
            handle(session.receive(line))
        case .line(let line):
            // A ROOMS listing is printed as a list; its line for our own room is not news.
            let isListing = session.outstandingCommands.first == "ROOMS"
            handle(session.receive(line))
            if !isFullScreen, !isListing, let text = PlainFormatter.line(for: line, in: session.view) {
                printLine(text)
                shownRevision = session.view.revision
            }
            runScript()
        case .closed(let reason):
            connection = nil
            guard hasConnected else {
                leave(1, message: "set-cli: cannot connect to \(options.host):\(options.port): \(reason)")
            }
            handle(session.connectionLost(reason))
            if session.shouldReconnect {
                scheduleReconnect()
            } else {
                ui.connection = .offline(reason)
                if !isFullScreen && isInputClosed { leave(0) }
            }
        }
        scheduleRender()
    }

    private func scheduleReconnect() {
        reconnectAttempt += 1
        let delay = min(Self.maximumReconnectDelay, 0.5 * Double(1 << min(reconnectAttempt - 1, 8)))
        ui.connection = .reconnecting(attempt: reconnectAttempt, seconds: Int(delay.rounded(.up)))
        if !isFullScreen { printLine("reconnecting in \(delay) s (attempt \(reconnectAttempt))") }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            guard connection == nil, !isExiting else { return }
            connect()
        }
    }

    private func handle(_ outputs: [ClientSession.Output]) {
        for output in outputs {
            switch output {
            case .send(let line):
                connection?.send(line)
            case .event(let entry):
                ui.log(entry)
                if !isFullScreen { printLine(entry.styled.plainText) }
                if case .took = entry, options.isBell { TerminalDevice.write("\u{07}") }
                if case .newGame = entry { gameStartedAt = nil }
            case .status(let status):
                show(status)
            case .keepToken(let token):
                keep(token)
            case .fatal(let message):
                leave(1, message: message)
            case .panel(let panel):
                ui.panel = panel
                if !isFullScreen {
                    ui.panel = nil
                    for line in PlainFormatter.lines(for: panel) { printLine(line) }
                }
            case .finished:
                leave(0)
            }
        }
    }

    private func show(_ status: ClientSession.Status) {
        ui.status = status
        statusShownAt = Self.now()
        if !isFullScreen { printLine(PlainFormatter.line(for: status)) }
    }

    /// Keeps the seat's token on disk for the next start, or forgets it; a failure is shown, not fatal:
    /// the game goes on, only a restart would not find the seat.
    private func keep(_ token: String?) {
        guard let tokens else { return }
        let (host, port, name) = (options.host, options.port, options.name)
        guard let token else {
            tokens.remove(host: host, port: port, name: name)
            return
        }
        do {
            try tokens.save(token, host: host, port: port, name: name)
        } catch {
            handle([.event(.problem("cannot keep the seat for a restart: \(error)"))])
        }
    }

    // MARK: Input

    private func startInput() {
        if isFullScreen {
            guard TerminalDevice.enterFullScreen() else {
                leave(1, message: "set-cli: cannot put the terminal in raw mode; try --plain")
            }
            size = TerminalDevice.size() ?? size
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        source.setEventHandler { [self] in readInput(source) }
        source.resume()
        sources.append(source)
    }

    private func readInput(_ source: DispatchSourceRead) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard n > 0 else {
            // End of input: the terminal went away, or a script is done.
            source.cancel()
            isInputClosed = true
            if isFullScreen { quit() } else { runScript() }
            return
        }
        let bytes = Array(buffer[0..<n])
        if isFullScreen {
            for key in decoder.decode(bytes) {
                press(key)
                pickTyped()
            }
            scheduleRender()
        } else {
            for frame in inputFramer.append(bytes) {
                if case .line(let line) = frame { scriptLines.append(String(decoding: line, as: UTF8.self)) }
            }
            runScript()
        }
    }

    /// Plain mode: runs the lines read so far once the seat is taken, and quits after the last one
    /// when the input has ended.
    private func runScript() {
        guard !isFullScreen, !isExiting else { return }
        while session.isNamed, session.view.room != nil, session.outstandingCommands.isEmpty,
            !scriptLines.isEmpty
        {
            submit(scriptLines.removeFirst())
        }
        if isInputClosed, scriptLines.isEmpty, session.outstandingCommands.isEmpty,
            session.isNamed || !session.isConnected
        {
            quit()
        }
    }

    private func press(_ key: Key) {
        if ui.panel != nil {
            pressInPanel(key)
            return
        }
        switch key {
        case .character("?") where ui.editor.isEmpty: ui.panel = .help
        case .character(let c): ui.editor.insert(c)
        case .enter: submit(ui.editor.submit())
        case .backspace: ui.editor.deleteBackward()
        case .delete: ui.editor.deleteForward()
        case .left: ui.editor.moveLeft()
        case .right: ui.editor.moveRight()
        case .home, .control("a"): ui.editor.moveToStart()
        case .end, .control("e"): ui.editor.moveToEnd()
        case .up, .control("p"): ui.editor.recallPrevious()
        case .down, .control("n"): ui.editor.recallNext()
        case .control("u"), .escape: ui.editor.clear()
        case .control("w"): ui.editor.deleteWordBackward()
        case .control("k"): ui.editor.deleteToEnd()
        case .control("l"): writer.invalidate()
        case .control("c"): quit()
        case .control("d"): if ui.editor.isEmpty { quit() } else { ui.editor.deleteForward() }
        case .control("z"):
            TerminalDevice.suspend()
            size = TerminalDevice.size() ?? size
            writer.invalidate()
        default: break
        }
    }

    private func pressInPanel(_ key: Key) {
        let page = ScreenRenderer.panelHeight(size)
        switch key {
        case .up, .character("k"): ui.panel?.scroll(by: -1, height: page)
        case .down, .character("j"): ui.panel?.scroll(by: 1, height: page)
        case .pageUp, .character("b"): ui.panel?.scroll(by: -page, height: page)
        case .pageDown, .character(" "): ui.panel?.scroll(by: page, height: page)
        case .home, .character("g"): ui.panel?.scroll(by: -Int(Int32.max), height: page)
        case .end, .character("G"): ui.panel?.scrollToEnd(height: page)
        case .escape, .enter, .character("q"), .character("?"): ui.panel = nil
        case .control("c"): quit()
        case .control("l"): writer.invalidate()
        default: break
        }
    }

    /// Reads the letters typed so far against the board on the screen, so each pick is the card the
    /// player saw there; the first pick fixes the selection's revision.
    private func pickTyped() {
        let context = UserCommand.Context(shownView)
        let positions = UserCommand.typedPositions(ui.editor.text, context: context)
        selection.update(
            positions: positions, board: shownView.setCards.map { $0?.code }, revision: shownRevision)
    }

    private func submit(_ line: String) {
        // Claims are read against the board the player sees (full screen), not one that arrived since.
        let view = isFullScreen ? shownView : session.view
        guard let parsed = UserCommand.parse(line, context: UserCommand.Context(view)) else { return }
        switch parsed {
        case .failure(let error):
            handle([.status(ClientSession.Status(.failure, error.message))])
        case .success(.help):
            if isFullScreen {
                ui.panel = .help
            } else {
                for text in UserCommand.helpLines { printLine(text) }
            }
        case .success(.quit):
            quit()
        case .success(.reconnect):
            // Also useful while connected: a connection that looks stuck is dropped and made again,
            // and RESUME keeps the seat.
            handle(session.perform(.reconnect, revision: shownRevision))
            if let connection {
                connection.close()
                self.connection = nil
                handle(session.connectionLost("dropped as asked"))
            }
            reconnectAttempt = 0
            ui.connection = .reconnecting(attempt: 1, seconds: 0)
            connect()
        case .success(let command):
            var revision = shownRevision
            if case .claim(let picks) = command {
                show(ClientSession.Status(.info, "claiming \(picks.joined(separator: " "))…"))
                // The revision the first card was picked on: if the board changed since, the server
                // answers STALE (no penalty) instead of judging cards the player never saw.
                if isFullScreen, let picked = selection.revision { revision = picked }
                selection.clear()
            }
            handle(session.perform(command, revision: revision))
        }
    }

    // MARK: Output

    private func printLine(_ text: String) {
        TerminalDevice.write(text + "\n")
    }

    private func resized() {
        guard isFullScreen else { return }
        size = TerminalDevice.size() ?? size
        writer.invalidate()
        if ui.panel != nil { ui.panel?.scroll(by: 0, height: ScreenRenderer.panelHeight(size)) }
        scheduleRender()
    }

    private func scheduleRender() {
        guard isFullScreen, !isRenderScheduled else { return }
        isRenderScheduled = true
        queue.async { [self] in
            isRenderScheduled = false
            render()
        }
    }

    /// Brings what is drawn up to date: a new board moves the selection with its cards and marks
    /// the cards just dealt; the clock and the expiry of marks and status lines are read here.
    private func prepareFrame() {
        let now = Self.now()
        let view = session.view
        let oldCards = shownView.setCards.map { $0?.code }
        let newCards = view.setCards.map { $0?.code }
        if view.revision != shownRevision || view.room != shownView.room || oldCards != newCards {
            let change = selection.follow(board: newCards, revision: view.revision)
            if !change.isEmpty, !ui.editor.text.hasPrefix("/") {
                ui.editor.replace(with: selection.letters + (selection.isEmpty ? "" : " "))
            }
            if let note = selection.describe(change) { show(ClientSession.Status(.failure, note)) }
            // Chain cards are typed as 1–3 and the chain changes with every set: a number typed for
            // the old chain would name a card of the new one, so it goes and must be typed again.
            let typed = ui.editor.text
            if view.chain != shownView.chain, !typed.hasPrefix("/"), typed.contains(where: \.isNumber) {
                ui.editor.replace(with: selection.letters + (selection.isEmpty ? "" : " "))
                show(
                    ClientSession.Status(
                        .failure, "the chain changed under your selection: type its card again"))
            }
            // Cards that replaced others on the same board: not a whole new deal or another room.
            if view.room == shownView.room, !oldCards.isEmpty, view.status == .playing {
                let fresh = newCards.indices.filter {
                    newCards[$0] != nil && ($0 >= oldCards.count || oldCards[$0] != newCards[$0])
                }
                if !fresh.isEmpty, fresh.count < newCards.count {
                    ui.fresh = Set(fresh)
                    freshUntil = now + Self.freshSeconds
                }
            }
        }
        if !ui.fresh.isEmpty, now >= freshUntil { ui.fresh = [] }
        if ui.status != nil, now - statusShownAt >= Self.statusSeconds { ui.status = nil }
        let night = session.night
        let isRunning = view.room != nil && view.status == .playing && !night.isWaiting && !view.board.isEmpty
        ui.isWatching = session.isWatching
        if isRunning {
            // The clock counts from the deal as the server tells it (`STARTED`), so it is the same on
            // every client and after set-cli starts again; a server that does not say counts from now.
            if gameStartedAt == nil { gameStartedAt = now }
            let elapsed =
                view.startedAt.map { Self.wallMilliseconds() - $0 }
                ?? Int((now - (gameStartedAt ?? now)) * 1000)
            // A timed or practice game's clock leaves its pauses out (`CLOCK`), and counts down to a limit.
            ui.clock =
                view.clockText(atUnixMilliseconds: Self.wallMilliseconds())
                ?? GameNight.clock(milliseconds: elapsed)
        } else {
            gameStartedAt = nil
            ui.clock = view.status == .over ? night.duration.map { GameNight.clock(milliseconds: $0) } : nil
        }
        shownView = view
        shownRevision = view.revision
    }

    private func render() {
        guard hasConnected else { return }
        prepareFrame()
        let renderer = ScreenRenderer(
            view: session.view, me: session.isNamed ? session.name : nil, hint: session.hint?.position,
            ui: ui,
            isColour: options.isColour, night: session.night)
        let frame = renderer.frame(size)
        TerminalDevice.write(writer.update(to: frame, size: size, isColour: options.isColour))
    }
}
