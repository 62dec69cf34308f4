import SetTestSupport
import Testing

/// Who may connect, join, watch and read, and for how long a connection may stay silent.
@Suite struct AccessLimitTests {
    @Test(.timeLimit(.minutes(3))) func oneAddressGetsAtMostMaxPerIPConnections() throws {
        let server = try TestServer { $0.maxPerIP = 2 }
        defer { server.stop() }
        let first = try server.connect("first")
        let second = try server.connect("second")
        for attempt in 0..<2 {
            let third = try TestClient(port: server.port, label: "third \(attempt)")
            let refusal = try third.readLine()
            #expect(refusal.hasPrefix("ERR - FULL "), "\(refusal)")
            #expect(try third.expectEOF().isEmpty, "nothing after FULL but end of file")
            // A refused connection does not count against the address.
            #expect(server.server.connectionCount == 2)
        }
        #expect(try second.request("PING").final == "OK PING", "the others are unaffected")

        // Closing one frees a place for the address.
        first.close()
        #expect(eventually(timeout: 3) { server.server.connectionCount == 1 })
        let fourth = try server.connect("fourth")
        #expect(try fourth.request("PING").final == "OK PING")
        #expect(try second.request("PING").final == "OK PING")
    }

    @Test(.timeLimit(.minutes(3))) func aPrivateRoomNeedsItsPasswordAndNeverShowsIt() throws {
        let server = try TestServer()
        defer { server.stop() }
        var everything: [String] = []
        let (ann, _) = try server.named("ann")
        let created = try ann.request("JOIN r password=pw")
        #expect(created.final == "OK JOIN r", "\(created)")
        everything += created.lines
        let (pub, _) = try server.player("pat", room: "open")

        let (bob, _) = try server.named("bob")
        let rooms = try bob.request("ROOMS")
        #expect(rooms.lines == ["ROOM open set 1 playing"] && rooms.final == "OK ROOMS 1", "\(rooms)")
        for line in ["JOIN r", "JOIN r password=nope", "JOIN r password=PW"] {
            let refused = try bob.request(line)
            #expect(refused.final.hasPrefix("ERR JOIN DENIED "), "\(line): \(refused)")
        }
        let outside = try bob.request("HISTORY r")
        #expect(outside.final.hasPrefix("ERR HISTORY DENIED "), "\(outside)")
        #expect(outside.lines.isEmpty)

        let watcher = try server.connect("watcher")
        for line in ["WATCH r", "WATCH r password=nope"] {
            let refused = try watcher.request(line)
            #expect(refused.final.hasPrefix("ERR WATCH DENIED "), "\(line): \(refused)")
        }
        let watching = try watcher.request("WATCH r password=pw")
        #expect(watching.final == "OK WATCH r", "\(watching)")
        everything += watching.lines

        let joined = try bob.request("JOIN r password=pw")
        #expect(joined.final == "OK JOIN r", "\(joined)")
        #expect(joined.lines.first == "ROOM r set 2 playing", "\(joined)")
        everything += joined.lines
        everything += try ann.expect(prefix: "ROOM r set 2").skipped
        // Insiders read its history; the spectator too.
        #expect(try bob.request("HISTORY r").final == "OK HISTORY 0")
        #expect(try watcher.request("HISTORY r").final == "OK HISTORY 0")
        #expect(try pub.request("HISTORY r").final.hasPrefix("ERR HISTORY DENIED "))
        // A public room ignores a password.
        let (carl, _) = try server.named("carl")
        #expect(try carl.request("JOIN open password=whatever").final == "OK JOIN open")
        _ = try pub.expect(prefix: "ROOM open set 2")
        // Still unlisted with players in it.
        #expect(try pub.request("ROOMS").lines == ["ROOM open set 2 playing"])

        for client in [ann, bob] { everything += try client.request("STATE").lines }
        everything += try watcher.request("STATE").lines
        let options = everything.filter { $0.hasPrefix("OPTIONS ") }
        #expect(options.count >= 5 && options.allSatisfy { $0 == "OPTIONS mode=normal penalty=1 hints=on" })
        #expect(!everything.contains { $0.contains("pw") || $0.contains("password") }, "\(everything)")
    }

    @Test(.timeLimit(.minutes(3))) func aSilentConnectionIsClosedAfterTheRegistrationDeadline() throws {
        let server = try TestServer { $0.registrationTimeout = 1 }
        defer { server.stop() }
        let start = monotonicNow()
        let silent = try server.connect("silent")
        let pinging = try server.connect("pinging")
        let (player, _) = try server.player("ann", room: "lobby")
        let spectator = try server.connect("spectator")
        #expect(try spectator.request("WATCH lobby").isOK("WATCH"))
        let resumer = try server.connect("resumer")
        let (dropped, token) = try server.named("bob")
        dropped.close()
        #expect(try resumer.request("RESUME \(token)").isOK("RESUME"))

        // PING is a command but not an introduction: it does not stop the clock.
        var pingingLines: [String] = []
        while monotonicNow() - start < 4 && !pingingLines.contains(where: { $0.hasPrefix("BYE") }) {
            do {
                try pinging.send("PING")
            } catch {
                break  // The server closed on us.
            }
            pingingLines += try pinging.lines(arrivingWithin: 0.25)
        }
        if !pinging.isAtEOF { pingingLines += try pinging.expectEOF(timeout: 3) }
        #expect(pingingLines.filter { $0 != "OK PING" } == ["BYE no HELLO within 1 s"], "\(pingingLines)")

        let lines = try silent.expectEOF(timeout: 3)
        #expect(lines == ["BYE no HELLO within 1 s"], "\(lines)")
        #expect((monotonicNow() - start) * testTimeScale >= 1)
        // HELLO, WATCH and RESUME all count; those connections stay.
        pause(max(0, start + 3 - monotonicNow()))
        for client in [player, spectator, resumer] {
            #expect(try client.request("PING").final == "OK PING", "\(client.label)")
        }
        #expect(server.server.connectionCount == 3)
    }

    @Test(.timeLimit(.minutes(3))) func aSilentClientIsPingedAndStaysConnected() throws {
        let server = try TestServer { $0.pingInterval = 1 }
        defer { server.stop() }
        let (quiet, _) = try server.player("quiet", room: "hush")
        let (answering, _) = try server.named("answering")
        let start = monotonicNow()
        var pings: [String] = []
        var answers: [String] = []
        // The sweep runs once a second, so a PING comes every one or two seconds.
        while monotonicNow() - start < 6 && (pings.count < 2 || answers.count < 2) {
            for line in try answering.lines(arrivingWithin: 0.05) where line.hasPrefix("PING ") {
                answers.append(try answering.request("PING").final)
            }
            pings += try quiet.lines(arrivingWithin: 0.05)
        }
        #expect(pings.count >= 2, "a silent client gets a PING about every second: \(pings)")
        #expect(
            pings.allSatisfy { $0.wholeMatch(of: /PING \d+/) != nil }, "\(pings)")
        #expect(Set(pings).count == pings.count, "each PING has its own token: \(pings)")
        #expect(!quiet.isAtEOF)
        #expect(!answers.isEmpty && answers.allSatisfy { $0 == "OK PING" }, "\(answers)")
        #expect(try quiet.request("STATE").lines.contains("PLAYER quiet 0 online"))
        #expect(server.server.connectionCount == 2)
    }
}
