import SetTestSupport
import Testing

/// The core's timers on a virtual clock: registration deadline, idle timeout, server PINGs. Each test
/// moves time itself, so none sleeps and each is exact about when a timer fires.
@Suite struct TimerTests {
    @Test func aSilentConnectionIsClosedAfterTheRegistrationDeadline() throws {
        // Without the page's sniff window, every connection starts its clock at the same moment.
        let server = EmbeddedServer {
            $0.registrationTimeout = 1
            $0.isHTTPEnabled = false
        }
        let silent = try server.connect("silent")
        let pinging = try server.connect("pinging")
        let (player, _) = try server.player("ann", room: "lobby")
        let spectator = try server.connect("spectator")
        #expect(try spectator.request("WATCH lobby").isOK("WATCH"))
        let resumer = try server.connect("resumer")
        let (dropped, token) = try server.named("bob")
        _ = try dropped.request("JOIN lobby")
        dropped.close()
        #expect(try resumer.request("RESUME \(token)").isOK("RESUME"))

        // PING is a command but not an introduction: it does not stop the clock.
        server.advance(by: 1)
        #expect(try pinging.request("PING").final == "OK PING", "the deadline is not passed at 1 s")
        #expect(silent.readAvailable().isEmpty)
        server.advance(by: 1)
        #expect(try pinging.expectEOF() == ["BYE no HELLO within 1 s"])
        #expect(try silent.expectEOF() == ["BYE no HELLO within 1 s"])
        // HELLO, WATCH and RESUME all count; those connections stay.
        server.advance(by: 5)
        for client in [player, spectator, resumer] {
            #expect(try client.request("PING").final == "OK PING", "\(client.label)")
        }
        #expect(server.connectionCount == 3)
    }

    @Test func aSilentClientIsPingedAndStaysConnected() throws {
        let server = EmbeddedServer { $0.pingInterval = 1 }
        let (quiet, _) = try server.player("quiet", room: "hush")
        let (answering, _) = try server.named("answering")
        var pings: [String] = []
        var answers: [String] = []
        for _ in 0..<6 {
            server.advance(by: 1)
            for line in answering.readAvailable() where line.hasPrefix("PING ") {
                answers.append(try answering.request("PING").final)
            }
            pings += quiet.readAvailable()
        }
        // A PING one interval after the last line in or out: at 1, 2, 3... seconds of silence.
        #expect(pings.count == 6, "a silent client gets a PING every interval: \(pings)")
        #expect(pings.allSatisfy { $0.wholeMatch(of: /PING \d+/) != nil }, "\(pings)")
        #expect(Set(pings).count == pings.count, "each PING has its own token: \(pings)")
        #expect(!quiet.isAtEOF)
        #expect(answers.count == 6 && answers.allSatisfy { $0 == "OK PING" }, "\(answers)")
        #expect(try quiet.request("STATE").lines.contains("PLAYER quiet 0 online"))
        #expect(server.connectionCount == 2)
    }

    @Test func idleConnectionsAreClosedAndBusyOnesStay() throws {
        let server = EmbeddedServer { $0.idleTimeout = 10 }
        let idle = try server.connect("idle")
        let busy = try server.connect("busy")
        for _ in 0..<5 {
            server.advance(by: 3)
            #expect(try busy.request("PING").final == "OK PING")
        }
        #expect(try idle.expectEOF() == ["BYE idle for 10 s"])
        #expect(server.logs.contains { $0.name == "idle" })
        #expect(!busy.isAtEOF)
    }

    @Test func halfALineIsNotActivity() throws {
        // The idle clock counts complete lines: a client that trickles bytes of a line it never ends is
        // as idle as a silent one.
        let server = EmbeddedServer { $0.idleTimeout = 10 }
        let trickler = try server.connect("trickler")
        for _ in 0..<11 {
            try trickler.send(bytes: Array("P".utf8))
            server.advance(by: 1)
        }
        #expect(try trickler.expectEOF() == ["BYE idle for 10 s"])
    }

    @Test func aFinishedGraceIsJournaledWithoutAnyoneConnected() throws {
        let server = EmbeddedServer { $0.grace = 5 }
        let (ann, _) = try server.player("ann", room: "alone")
        ann.close()
        let before = server.journal.count
        server.advance(by: 6)
        let made = server.journal.dropFirst(before).map(\.text)
        // The leave is in the game's record too, timed when the grace ran out.
        #expect(
            made == [
                "unseat alone ann", #"event alone {"ms":6000,"name":"ann","type":"leave"}"#, "close alone",
            ],
            "\(made)")
        #expect(server.core.roomCount == 0)
    }
}
