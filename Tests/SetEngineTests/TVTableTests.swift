import SetQR
import SetTestSupport
import SetWeb
import Testing

/// What the TV table needs of the server, in memory: `/tv` and `/qr.svg` through the whole engine (with
/// `--public-url` and without), and a watcher that needs no name — whom the idle timeout closes unless
/// it says something now and then, which is why the TV table sends `PING`.
@Suite struct TVTableTests {
    @Test func theTVTableAndTheRoomsCodeAreServedAtTheHostAskedOrThePublicURL() throws {
        let server = EmbeddedServer()
        let tv = try server.get("/tv?room=fun")
        #expect(tv.status == 200)
        #expect(tv.body == WebPage.tvBytes)
        let code = try server.get("/qr.svg?room=fun")
        #expect(code.status == 200)
        #expect(code.value("Content-Type") == "image/svg+xml")
        #expect(code.value("X-Content-Type-Options") == "nosniff")
        let link = "http://\(EmbeddedServer.testHost)/?room=fun"
        #expect(code.body == Array(try QRCode(text: link).svg().utf8))
        let bad = try server.get("/qr.svg?room=no%20such")
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("a room name of 1-16 letters"))

        let proxied = EmbeddedServer { $0.publicURL = "https://set.example.org" }
        let public_ = try proxied.get("/qr.svg?room=fun")
        #expect(public_.body == Array(try QRCode(text: "https://set.example.org/?room=fun").svg().utf8))
    }

    @Test func aWatcherNeedsNoNameAndIsClosedWhenIdleUnlessItPings() throws {
        let server = EmbeddedServer { $0.idleTimeout = 10 }
        _ = try server.player("ann", room: "fun")
        let silent = try server.connect("silent tv")
        let pinging = try server.connect("pinging tv")
        for tv in [silent, pinging] {
            #expect(try tv.request("WATCH fun").final.hasPrefix("OK WATCH fun "))
        }
        for _ in 0..<5 {
            server.advance(by: 3)
            #expect(try pinging.request("PING").final == "OK PING")
        }
        #expect(try silent.expectEOF().last == "BYE idle for 10 s")
        #expect(!pinging.isAtEOF)
    }
}
