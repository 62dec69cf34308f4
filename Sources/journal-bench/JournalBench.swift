import Dispatch
import Glibc
import SetProtocol
import SetServerCore
import SetTestSupport

/// Plays rooms through the in-memory server until the journal holds N records, then measures restoring
/// the whole log (what every start replayed before snapshots) against restoring the compacted journal
/// (one snapshot per room), both from the journal's bytes.
///
///     journal-bench [--rooms 1,10,100] [--records 10000,100000,1000000] [--matchismo-flips 40000]
///     journal-bench --key-hash [ITERATIONS]     (see KeyHashBench)
///     journal-bench --pbkdf2-check
///     journal-bench --matchismo-choose 10000,160000 [--choices N]     (see ChooseBench)
enum JournalBench {
    static func main(_ arguments: [String]) {
        var rooms = [1, 10, 100]
        var counts = [10_000, 100_000, 1_000_000]
        var flips = 40_000
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            if flag == "--version" {
                print(Release.banner("journal-bench"))
                return
            }
            if flag == "--key-hash" {
                KeyHashBench.bench(iterations: rest.popFirst().flatMap { Int($0) } ?? 10_000)
                return
            }
            if flag == "--matchismo-choose" {
                let histories = (rest.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
                var choices = 4_000
                if rest.popFirst() == "--choices" { choices = rest.popFirst().flatMap { Int($0) } ?? choices }
                ChooseBench.run(
                    histories: histories.isEmpty ? [10_000, 160_000] : histories, choices: choices)
                return
            }
            if flag == "--matchismo-journal" {
                let count = rest.popFirst().flatMap { Int($0) } ?? 10_000
                ChooseBench.writeJournal(choices: count, to: rest.popFirst() ?? "matchismo-state")
                return
            }
            if flag == "--pbkdf2-check" {
                if !KeyHashBench.checkLongVector() { exit(1) }
                return
            }
            let value = rest.popFirst() ?? ""
            let numbers = value.split(separator: ",").compactMap { Int($0) }
            switch flag {
            case "--rooms": rooms = numbers
            case "--records": counts = numbers
            case "--matchismo-flips": flips = numbers.first ?? flips
            default:
                print(
                    "usage: journal-bench [--rooms 1,10,100] [--records 10000,...] [--matchismo-flips N]\n"
                        + "       journal-bench --key-hash [ITERATIONS] | --pbkdf2-check")
                return
            }
        }
        print("| rooms | records | log bytes | log restore | snapshot bytes | snapshot restore |")
        print("|---|---|---|---|---|---|")
        for roomCount in rooms {
            for count in counts {
                let server = play(rooms: roomCount, until: count)
                report("\(roomCount)", server)
            }
        }
        if flips > 0 {
            let server = flip(flips)
            report("1 (Matchismo, \(flips) flips)", server)
        }
    }

    private static func report(_ label: String, _ server: EmbeddedServer) {
        let log = server.journal.flatMap(\.line)
        let snapshot = server.core.snapshotRecords().flatMap(\.line)
        let logTime = timeRestore(log, configuration: server.core.configuration)
        let snapshotTime = timeRestore(snapshot, configuration: server.core.configuration)
        print(
            "| \(label) | \(server.journal.count) | \(log.count) | \(format(logTime)) | \(snapshot.count) | \(format(snapshotTime)) |"
        )
    }

    /// Seconds to read the journal's bytes into records and replay them into a fresh core (median of 3).
    private static func timeRestore(_ bytes: [UInt8], configuration: ServerConfiguration) -> Double {
        var times: [Double] = []
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            var records: [JournalRecord] = []
            for line in bytes.split(separator: 0x0A) {
                guard let body = JournalCoding.verifiedBody(line), let record = try? JournalRecord(body: body)
                else {
                    fatalError("a record does not read back")
                }
                records.append(record)
            }
            do {
                _ = try ServerCore(configuration: configuration).restore(
                    records, at: Instant(uptime: 0, wall: 0))
            } catch {
                fatalError("\(error)")
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return times.sorted()[1]
    }

    private static func format(_ seconds: Double) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : "\(Double(Int(seconds * 100)) / 100) s"
    }

    /// Rooms of two players each, taking sets, chatting and starting new games, until `count` records.
    private static func play(rooms: Int, until count: Int) -> EmbeddedServer {
        let server = EmbeddedServer { $0.logLevel = .error }
        var tables: [(EmbeddedClient, BoardView?)] = []
        for room in 0..<rooms {
            guard let (player, join) = try? server.player("p\(room)", room: "r\(room)"),
                let (_, _) = try? server.player("q\(room)", room: "r\(room)")
            else { fatalError("cannot seat room \(room)") }
            _ = player.readAvailable()
            tables.append((player, BoardView.last(in: join.lines)))
        }
        var turn = 0
        while server.journal.count < count {
            let index = turn % rooms
            turn += 1
            var (player, board) = tables[index]
            // The rate limit is per second of the virtual clock.
            if turn % (rooms * 50) == 0 { server.advance(by: 1) }
            if turn % 4 != 0 {
                _ = try? player.request("CHAT move \(turn)")
            } else if let current = board, let set = current.sets.first,
                let reply = try? player.request(current.claim(set)), reply.isOK("CHOOSE")
            {
                board = BoardView.last(in: reply.lines)
            } else if let reply = try? player.request("NEW") {
                board = BoardView.last(in: reply.lines) ?? board
            }
            _ = player.readAvailable()
            tables[index] = (player, board)
        }
        return server
    }

    /// One Matchismo room where a player turns the same card up and down `count` times.
    private static func flip(_ count: Int) -> EmbeddedServer {
        let server = EmbeddedServer { $0.logLevel = .error }
        guard let (player, _) = try? server.player("flip", room: "cards", options: "matchismo") else {
            fatalError("cannot seat")
        }
        for n in 0..<count {
            if n % 50 == 0 { server.advance(by: 1) }
            _ = try? player.request("CHOOSE a")
            _ = player.readAvailable()
        }
        return server
    }
}
