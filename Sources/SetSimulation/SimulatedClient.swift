import SetGame
import SetProtocol
import SetServerCore

/// One simulated person and the program they use: a name, maybe a token, a connection when connected,
/// and the view of their room they built from what the server sent them — nothing else.
final class SimulatedClient {
    /// How the client plays: what it sends and over what.
    enum Kind: Int, CaseIterable {
        /// `nc`: positions without a revision.
        case human
        /// `nc`, naming cards by code.
        case coder
        /// set-cli: positions with the revision of the board it showed.
        case terminal
        /// The page, over a WebSocket, with revisions.
        case browser
        /// Mostly watches.
        case spectator
        /// Fast and sometimes wrong.
        case bot
        /// Makes rooms, kicks and locks.
        case host
        /// Votes for new games.
        case voter
    }

    let index: Int
    let name: String
    let kind: Kind
    /// A key that claims the name, for some clients.
    let key: String?
    var connection: ConnectionID?
    var token: String?
    /// Whether it reads what arrives; while not, bytes pile up (the engine drops it past the cap).
    var isReading = true
    /// Bytes delivered and not read yet.
    var inbox: [UInt8] = []
    /// Whether bytes were delivered since the simulation last had it read (it reads only those clients).
    var hasArrived = false
    /// Whether the WebSocket's `101` was read (a browser reads frames after it).
    var isUpgraded = false
    /// What it knows of its room, from the lines it read.
    var view = GameView()
    /// The board before the last change it saw, for claims that arrive too late.
    var earlierBoard: (revision: Int, cards: [Card])?
    /// Final lines (`OK …`/`ERR …`) read since the trace last took them.
    var finals: [String] = []
    /// Whether final lines are kept for the trace (a batch of seeds keeps no trace).
    var keepsFinals = true
    /// The verbs whose `OK` the client reads the detail of.
    private static let verbsRead: Set<String> = ["HELLO", "JOIN", "WATCH", "RESUME", "STATE", "LEAVE"]
    /// Lines the client could not read as the protocol says (a bug, if any).
    var protocolProblems: [String] = []

    init(index: Int) {
        self.index = index
        name = "c\(index)"
        kind = Kind(rawValue: index % Kind.allCases.count)!
        key = index % 5 == 4 ? "k\(index)" : nil
    }

    var isConnected: Bool { connection != nil }
    var isWebSocket: Bool { kind == .browser }

    /// The connection is gone: what was queued is lost, the view is stale.
    func disconnected() {
        connection = nil
        inbox = []
        isUpgraded = false
        isReading = true
        view = GameView()
        earlierBoard = nil
        sinceFinal = []
    }

    /// Reads what arrived, if it reads: lines (or, over a WebSocket, the `101` then text frames).
    func read() {
        guard isReading, !inbox.isEmpty else { return }
        var start = 0
        if isWebSocket {
            if !isUpgraded {
                guard let end = Self.headEnd(in: inbox) else { return }
                let head = String(decoding: inbox[..<end], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101 ") else {
                    protocolProblems.append("no upgrade: \(head.prefix(40))")
                    inbox = []
                    return
                }
                isUpgraded = true
                start = end
            }
            while let (payload, opcode, next) = Self.frame(in: inbox, from: start) {
                start = next
                if opcode == 1 { take(payload[...]) }
            }
        } else {
            while let newline = inbox[start...].firstIndex(of: 0x0A) {
                take(inbox[start..<newline])
                start = newline + 1
            }
        }
        inbox.removeSubrange(..<start)
    }

    /// Lines read since the last final line: a reply's data lines are its last ones.
    private var sinceFinal: [ServerLine] = []

    /// Takes one line, parsed from its bytes as set-cli parses them (its text is made only for the lines
    /// the trace or a problem report shows).
    private func take(_ bytes: ArraySlice<UInt8>) {
        let line = ServerLine(parsing: bytes)
        func text() -> String { String(decoding: bytes, as: UTF8.self) }
        if line.isFinal, keepsFinals { finals.append(text()) }
        // The board before a new one (worked out only for a board line: most lines are not).
        if case .board = line, view.room != nil {
            let cards = view.setCards.compactMap { $0 }
            if !cards.isEmpty { earlierBoard = (view.revision, cards) }
        }
        _ = view.apply(line)
        if case .unknown = line { protocolProblems.append(text()) }
        if case .bye = line, keepsFinals { finals.append(text()) }
        // A RESUME retired the token presented; this one takes the seat back from now on.
        if case .token(let fresh) = line { token = fresh }
        guard line.isFinal else { return sinceFinal.append(line) }
        // A snapshot (the reply to JOIN, WATCH, RESUME, STATE) is the whole room: the view is rebuilt
        // from exactly its data lines, as set-cli starts again at a snapshot.
        if case .err(let verb, .badToken, _) = line, verb == "RESUME" { token = nil }
        // Only these verbs' replies change what the client knows; the others' details are not read
        // (``OKDetail`` reads a detail by its verb, so no other verb's could be one of these).
        if case .ok(let verb, _) = line, Self.verbsRead.contains(verb), let detail = line.okDetail {
            switch detail {
            case .hello(_, let token): self.token = token
            case .join, .watch, .resume, .state:
                // The lines as parsed when they were read (not written out as text and parsed again).
                view = GameView()
                for data in sinceFinal.suffix(detail.dataCount) { _ = view.apply(data) }
                earlierBoard = nil
            case .leave: view = GameView()
            default: break
            }
        }
        protocolProblems += view.drainProtocolErrors()
        sinceFinal = []
    }

    /// Where the HTTP head ends (after its blank line), if it has.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 3..<bytes.count where bytes[i - 3...i].elementsEqual([13, 10, 13, 10]) { return i + 1 }
        return nil
    }

    /// One unmasked server frame at `start`: its payload, opcode and where the next begins.
    private static func frame(in bytes: [UInt8], from start: Int) -> ([UInt8], UInt8, Int)? {
        guard bytes.count - start >= 2 else { return nil }
        var length = Int(bytes[start + 1] & 0x7F)
        var at = start + 2
        if length == 126 {
            guard bytes.count - at >= 2 else { return nil }
            length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
            at += 2
        } else if length == 127 {
            guard bytes.count - at >= 8 else { return nil }
            length = bytes[at..<(at + 8)].reduce(0) { $0 << 8 | Int($1) }
            at += 8
        }
        guard bytes.count - at >= length else { return nil }
        return (Array(bytes[at..<(at + length)]), bytes[start] & 0x0F, at + length)
    }
}
