import Dispatch
import Glibc
import SetGame
import SetProtocol
import SetServerCore
import SetTestSupport

/// The CPU a live Matchismo `CHOOSE` costs once the game already holds N choices (issue 28: it used to
/// grow with N). Playing N choices to get there would itself cost the sum of that growth, so the room is
/// made from a snapshot: a player turns card `a` up and down twice, the room's snapshot is stretched to
/// N choices (the same two choices over and over, with their times and record events, as N flips leave
/// it), and a server restored from it takes the measured choices: the same card, up and down, through
/// the whole engine (framing, rate limit, core, broadcast, journal records), as on the daemon.
///
///     journal-bench --matchismo-choose 10000,160000 [--choices 4000]
///     journal-bench --matchismo-journal N DIR     (writes DIR/journal holding that room; prints the token)
///
/// The second form is for the daemon (`scripts/matchismo-bench.sh`): setd started on DIR restores the
/// room, and a client that says `RESUME <token>` is its player, on turn.
enum ChooseBench {
    /// Writes `directory`/journal: the compacted journal of a server whose Matchismo room `cards` holds
    /// `count` choices; prints the seat's `RESUME` token.
    static func writeJournal(choices count: Int, to directory: String) {
        let (records, token) = stretchedRecords(count)
        let bytes = records.flatMap(\.line)
        mkdir(directory, 0o700)
        guard let file = fopen(directory + "/journal", "w") else { fatalError("cannot write \(directory)") }
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        print(token)
    }

    /// Prints a table: choices already in the game, µs per `CHOOSE` (median of 5 batches), and the
    /// snapshot's size after the measured choices.
    static func run(histories: [Int], choices: Int) {
        print("| choices in the game | µs per CHOOSE (median of 5) | min | max | snapshot bytes after |")
        print("|---|---|---|---|---|")
        for n in histories {
            let (server, client) = seated(after: n)
            var perChoose: [Double] = []
            let batch = max(2, choices / 5) & ~1
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<batch {
                    guard (try? client.request("CHOOSE a"))?.isOK("CHOOSE") == true else {
                        fatalError("a CHOOSE was refused")
                    }
                    _ = client.readAvailable()
                }
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
                perChoose.append(elapsed / Double(batch) / 1000)
            }
            perChoose.sort()
            let bytes = server.core.snapshotRecords().flatMap(\.line).count
            print(
                "| \(n) | \(format(perChoose[2])) | \(format(perChoose[0])) | \(format(perChoose[4])) | \(bytes) |"
            )
        }
    }

    private static func format(_ micros: Double) -> String {
        "\(Double(Int((micros * 10).rounded())) / 10)"
    }

    /// A server whose Matchismo room holds `count` choices, and its one player, seated and on turn.
    private static func seated(after count: Int) -> (EmbeddedServer, EmbeddedClient) {
        let (records, token) = stretchedRecords(count)
        guard let restored = try? EmbeddedServer(configure).restarted(from: records, after: 1) else {
            fatalError("the stretched snapshot does not restore")
        }
        restored.checksReplay = false
        guard let client = try? restored.connect("flip"),
            (try? client.request("RESUME \(token)"))?.isOK("RESUME flip") == true
        else { fatalError("cannot resume the seat") }
        _ = client.readAvailable()
        return (restored, client)
    }

    private static func configure(_ configuration: inout ServerConfiguration) {
        configuration.logLevel = .error
        configuration.commandsPerSecond = 0
    }

    /// The compacted journal of a server whose Matchismo room `cards` holds `count` choices, and the
    /// `RESUME` token of its one player.
    private static func stretchedRecords(_ count: Int) -> ([JournalRecord], String) {
        let server = EmbeddedServer(configure)
        server.checksReplay = false
        guard let (player, token) = try? server.named("flip"),
            (try? player.request("JOIN cards matchismo"))?.isOK("JOIN cards") == true
        else { fatalError("cannot seat the player") }
        for _ in 0..<2 {
            server.advance(by: 1)
            guard (try? player.request("CHOOSE a"))?.isOK("CHOOSE") == true else { fatalError("CHOOSE a") }
        }
        let records = server.core.snapshotRecords().map { record -> JournalRecord in
            guard case .snapshot(var room) = record, case .matchismo(var state) = room.game else {
                return record
            }
            // Card a is face down again after two flips: the pair repeats as often as the game needs.
            let pairs = max(1, count / 2)
            state.history = Array(repeatElement(state.history, count: pairs).joined())
            room.game = .matchismo(state)
            room.historyTimes = (0..<(pairs * 2)).map { room.startedAt + Double($0) / 100 }
            let chosen = room.night.recordEvents.filter { $0.type == "choose" }
            let others = room.night.recordEvents.filter { $0.type != "choose" }
            room.night.recordEvents = others + Array(repeatElement(chosen, count: pairs).joined())
            return .snapshot(room)
        }
        return (records, token)
    }
}
