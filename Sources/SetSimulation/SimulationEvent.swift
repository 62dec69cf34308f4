import SetGame

/// One thing that happens in a simulated evening: a client acting, time passing, or a fault.
///
/// Events are intents, resolved against the state when they run ("claim a valid set on the board you
/// see"), not scripts: an event that no longer applies (its client is not connected) does nothing. So
/// any subset of a failing list of events still runs, and a failure shrinks to the few events it needs.
public enum SimulationEvent: Equatable, Sendable, CustomStringConvertible {
    /// The client opens a connection (over TCP or, for a browser, a WebSocket).
    case connect(Int)
    /// `HELLO <its name>` (with a key, for some).
    case hello(Int)
    /// `JOIN` the simulation's room number `room` with that room's options.
    case join(Int, room: Int)
    /// `WATCH` room number `room`.
    case watch(Int, room: Int)
    /// A claim of the kind given, on the board the client sees.
    case claim(Int, ClaimKind)
    /// `CHAT` with text number `text` (some glue to their neighbours under Unicode).
    case chat(Int, text: Int)
    /// `NEW`, with option set number `options`.
    case newGame(Int, options: Int)
    /// `READY`.
    case ready(Int)
    /// `START`.
    case start(Int)
    /// `KICK` the player the client sees at seat `seat`.
    case kick(Int, seat: Int)
    /// `LOCK` (`true`) or `UNLOCK`.
    case lock(Int, Bool)
    /// `LEAVE`.
    case leave(Int)
    /// `QUIT`.
    case quit(Int)
    /// Half a line, then the connection is cut.
    case cutMidLine(Int)
    /// The client stops reading (`true`) or reads again.
    case stall(Int, Bool)
    /// The connection drops.
    case drop(Int)
    /// The client reconnects and presents its token (`RESUME`), or says `HELLO` if it has none.
    case resume(Int)
    /// Bytes no client should send: junk, a line over the cap, invalid UTF-8.
    case junk(Int, kind: Int)
    /// Time passes: `milliseconds`.
    case wait(milliseconds: Int)
    /// The clock jumps by `seconds` (a laptop waking up: grace and idle timeouts run out).
    case clockJump(seconds: Int)
    /// The process dies; the journal keeps what reached the disk, its unsynced tail torn at the byte
    /// `tear` ‰ of the way along; the server starts again on it.
    case crash(tear: Int)
    /// The disk fills after the next journal write and stays full for `seconds`.
    case diskFull(seconds: Int)
    /// The next journal write fails with an I/O error.
    case writeError

    /// What a claim tries.
    public enum ClaimKind: Int, Equatable, Sendable, CaseIterable {
        /// A set on the board, by position, without a revision (as typed in `nc`).
        case byPosition
        /// A set on the board, by position, with the revision it was seen at (set-cli, the page).
        case withRevision
        /// A set by card codes.
        case byCode
        /// Three positions that are not a set.
        case wrong
        /// A set of the board before the last change, with that board's revision.
        case stale
    }

    public var description: String {
        switch self {
        case .connect(let c): return "c\(c) connect"
        case .hello(let c): return "c\(c) hello"
        case .join(let c, let room): return "c\(c) join r\(room)"
        case .watch(let c, let room): return "c\(c) watch r\(room)"
        case .claim(let c, let kind): return "c\(c) claim \(kind)"
        case .chat(let c, let text): return "c\(c) chat #\(text)"
        case .newGame(let c, let options): return "c\(c) new #\(options)"
        case .ready(let c): return "c\(c) ready"
        case .start(let c): return "c\(c) start"
        case .kick(let c, let seat): return "c\(c) kick seat \(seat)"
        case .lock(let c, let locked): return "c\(c) \(locked ? "lock" : "unlock")"
        case .leave(let c): return "c\(c) leave"
        case .quit(let c): return "c\(c) quit"
        case .cutMidLine(let c): return "c\(c) cut mid-line"
        case .stall(let c, let stalled): return "c\(c) \(stalled ? "stops reading" : "reads again")"
        case .drop(let c): return "c\(c) drops"
        case .resume(let c): return "c\(c) resume"
        case .junk(let c, let kind): return "c\(c) junk #\(kind)"
        case .wait(let ms): return "wait \(ms) ms"
        case .clockJump(let s): return "clock jumps \(s) s"
        case .crash(let tear): return "crash (tear at \(tear)‰)"
        case .diskFull(let seconds): return "disk full for \(seconds) s"
        case .writeError: return "journal write error"
        }
    }
}

extension SimulationEvent {
    /// The events of an evening of `count` events with `clients` clients, drawn from `seed`: mostly play
    /// (claims, choices, chat, votes), with joins, drops, resumes and host actions around it, and now and
    /// then a fault.
    public static func evening(seed: UInt64, count: Int, clients: Int, faults: Bool = true)
        -> [SimulationEvent]
    {
        var random = SeededGenerator(seed: seed ^ 0x5EED_0F_E7E5)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        var events: [SimulationEvent] = []
        // Everyone arrives first, so the evening starts with full rooms.
        for client in 0..<clients {
            events += [.connect(client), .hello(client), .join(client, room: pick(Simulation.roomCount))]
        }
        while events.count < count {
            let client = pick(clients)
            let roll = pick(1000)
            let event: SimulationEvent
            switch roll {
            case 0..<380: event = .claim(client, ClaimKind(rawValue: pick(5) < 3 ? pick(3) : 3 + pick(2))!)
            case 380..<480: event = .chat(client, text: pick(Simulation.chatTexts.count))
            case 480..<560: event = .wait(milliseconds: 50 + pick(1_500))
            case 560..<600: event = .join(client, room: pick(Simulation.roomCount))
            case 600..<630: event = .newGame(client, options: pick(Simulation.newGameOptions.count))
            case 630..<660: event = .ready(client)
            case 660..<675: event = .start(client)
            case 675..<690: event = .watch(client, room: pick(Simulation.roomCount))
            case 690..<710: event = .drop(client)
            case 710..<760: event = .resume(client)
            case 760..<780: event = .connect(client)
            case 780..<795: event = .hello(client)
            case 795..<805: event = .leave(client)
            case 805..<812: event = .quit(client)
            case 812..<822: event = .kick(client, seat: pick(4))
            case 822..<832: event = .lock(client, pick(2) == 0)
            case 832..<842: event = .cutMidLine(client)
            case 842..<856: event = .stall(client, pick(3) != 0)
            case 856..<870: event = .junk(client, kind: pick(4))
            case 870..<885: event = .clockJump(seconds: [3, 30, 70, 130, 700][pick(5)])
            case 885..<888 where faults: event = .crash(tear: pick(1001))
            case 893..<897 where faults: event = .diskFull(seconds: 1 + pick(30))
            case 897..<900 where faults: event = .writeError
            default: event = .claim(client, .byPosition)
            }
            events.append(event)
        }
        return events
    }
}
