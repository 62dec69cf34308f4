import SetQR
import SetTestSupport
import SetWeb
import Testing

/// `GET /qr.svg?room=NAME` (the room's join link as a QR code, read back by a real decoder) and
/// `GET /tv`, routed in memory: the link is `--public-url`'s or the request's `Host`'s, each checked, and
/// anything else is a `400` that says what was wrong.
@Suite struct JoinLinkRouteTests {
    let page = bytes("<!doctype html><p>page</p>")
    let tv = bytes("<!doctype html><p>tv</p>")

    func reply(_ lines: String..., publicURL: String? = nil) throws -> WebRouter.Reply {
        let head = try #require(parsedHead(bytes(lines.joined(separator: "\r\n") + "\r\n\r\n")))
        return WebRouter.reply(to: head, page: page, tvPage: tv, publicURL: publicURL)
    }

    func body(_ reply: WebRouter.Reply) -> String { String(decoding: reply.response.body, as: UTF8.self) }

    @Test func theCodeIsTheSVGOfTheRoomsLinkAtTheHostAskedWithHeadersThatKeepItAnImage() throws {
        let answer = try reply("GET /qr.svg?room=fun HTTP/1.1", "Host: 192.168.1.5:7777")
        let response = answer.response
        #expect(response.status == .ok)
        #expect(response.value("Content-Type") == "image/svg+xml")
        #expect(response.value("X-Content-Type-Options") == "nosniff")
        #expect(response.value("Content-Security-Policy") == "default-src 'none'; sandbox")
        #expect(response.value("Cache-Control") == "no-store")
        #expect(answer.keepsAlive && response.value("Connection") == "keep-alive")
        let expected = try QRCode(text: "http://192.168.1.5:7777/?room=fun").svg()
        #expect(body(answer) == expected)
    }

    @Test func theCodesDecodeWithZbarimgToTheLinkOfTheRoomAtTheHostOrThePublicURL() throws {
        let cases: [(host: String?, publicURL: String?, target: String, link: String)] = [
            ("192.168.1.5:7777", nil, "/qr.svg?room=fun", "http://192.168.1.5:7777/?room=fun"),
            (
                "Game-Night.local:7777", nil, "/qr.svg?room=Friday_2",
                "http://game-night.local:7777/?room=Friday_2"
            ),
            (
                "[fe80::1c2:3ff:fe44:5566]:7777", nil, "/qr.svg?v=2&room=a-b",
                "http://[fe80::1c2:3ff:fe44:5566]:7777/?room=a-b"
            ),
            ("10.0.0.2", nil, "/qr.svg?room=x", "http://10.0.0.2/?room=x"),
            (
                "127.0.0.1:7777", "https://set.example.org", "/qr.svg?room=fun",
                "https://set.example.org/?room=fun"
            ),
            (nil, "http://203.0.113.9:8080", "/qr.svg?room=night", "http://203.0.113.9:8080/?room=night"),
        ]
        var images: [[UInt8]] = []
        for item in cases {
            var lines = ["GET \(item.target) HTTP/1.\(item.host == nil ? 0 : 1)"]
            if let host = item.host { lines.append("Host: \(host)") }
            let head = try #require(parsedHead(bytes(lines.joined(separator: "\r\n") + "\r\n\r\n")))
            let answer = WebRouter.reply(to: head, page: page, tvPage: tv, publicURL: item.publicURL)
            #expect(answer.response.status == .ok, "\(item)")
            let cells = try #require(
                Self.cells(ofSVG: body(answer)), "the SVG of \(item.link) is not our drawing")
            images.append(Self.png(cells, scale: 4))
        }
        let decoded = try Zbarimg.decode(images)
        for (item, text) in zip(cases, decoded) {
            #expect(text.map { String(decoding: $0, as: UTF8.self) } == item.link)
        }
    }

    @Test(arguments: [
        "/qr.svg", "/qr.svg?", "/qr.svg?room=", "/qr.svg?room=-", "/qr.svg?room=a%20b", "/qr.svg?room=%66un",
        "/qr.svg?room=f+n", "/qr.svg?room=seventeen_chars_x", "/qr.svg?room=fun&room=two",
        "/qr.svg?rooms=fun",
        "/qr.svg?room=fun/../x", "/qr.svg?room=fun#x", "/qr.svg?ROOM=fun",
    ])
    func aMissingOrBadRoomNameIs400SayingWhatARoomNameIs(_ target: String) throws {
        let answer = try reply("GET \(target) HTTP/1.1", "Host: 192.168.1.5:7777")
        #expect(answer.response.status == .badRequest, "\(target)")
        #expect(body(answer).contains("/qr.svg needs ?room=NAME"), "\(target): \(body(answer))")
        #expect(!answer.keepsAlive && answer.response.value("Connection") == "close")
    }

    @Test(arguments: [
        "evil.example/x", "user@192.168.1.5", "192.168.1.5:99999", "192.168.1.5:0", "192.168.1.5:", ":7777",
        "h:80:80", "[::1", "[::1]x", "[zz::1]:7777", "[fe80::1%25eth0]", "a..b", "-a.example", "a-.example",
        "a_b.example", "%68ost", "host?x", "ho st", "set.example\\x",
    ])
    func aHostThatIsNotAHostIs400(_ host: String) throws {
        let answer = try reply("GET /qr.svg?room=fun HTTP/1.1", "Host: \(host)")
        #expect(answer.response.status == .badRequest, "\(host)")
        #expect(body(answer).contains("the request's Host is not a host name"), "\(host): \(body(answer))")
    }

    @Test func withoutAHostOrAPublicURLThereIsNoLinkAndALinkTooLongForACodeIsRefused() throws {
        let old = try reply("GET /qr.svg?room=fun HTTP/1.0")
        #expect(old.response.status == .badRequest)
        #expect(body(old).contains("Host"))
        // A legal host name too long for a version 10 code: its 63-byte labels make a 220-byte link.
        let label = String(repeating: "a", count: 63)
        let host = [label, label, label, "example", "lan"].joined(separator: ".")
        let long = try reply("GET /qr.svg?room=fun HTTP/1.1", "Host: \(host)")
        #expect(long.response.status == .badRequest)
        #expect(body(long).contains("more than a QR code here holds (213)"))
        // The root's dot and capitals are a host as well.
        #expect(try reply("GET /qr.svg?room=fun HTTP/1.1", "Host: SET.LAN.").response.status == .ok)
        #expect(try reply("GET /qr.svg?room=fun HTTP/1.1", "Host: [::1]:7777").response.status == .ok)
    }

    @Test func theTVTableIsServedAtTvWithAnyQueryAndOnlyThere() throws {
        for target in ["/tv", "/tv?room=fun", "/tv?room=bad%20name"] {
            let answer = try reply("GET \(target) HTTP/1.1", "Host: h")
            #expect(answer.response.status == .ok, "\(target)")
            #expect(answer.response.body == tv)
            #expect(answer.response.value("Content-Type") == "text/html; charset=utf-8")
            #expect(answer.keepsAlive)
        }
        for target in ["/tv/", "/TV", "/tv.html", "/qr.svg/", "/qr.png?room=fun"] {
            #expect(try reply("GET \(target) HTTP/1.1", "Host: h").response.status == .notFound, "\(target)")
        }
        #expect(try reply("POST /qr.svg?room=fun HTTP/1.1", "Host: h").response.status == .methodNotAllowed)
        let foreign = try reply("GET /qr.svg?room=fun HTTP/1.1", "Host: h:1", "Origin: http://evil.example")
        #expect(foreign.response.status == .forbidden)
    }

    @Test func theServedTVTableIsItsFilesAndThePagesModules() {
        let html = WebPage.tvHTML
        #expect(String(decoding: WebPage.tvBytes, as: UTF8.self) == html)
        #expect(html.contains("<title>SET · TV table</title>"))
        #expect(html.contains("id=\"stripes-R\"") && WebPage.html.contains("id=\"stripes-R\""))
        #expect(!html.contains("setd:") && !WebPage.html.contains("setd:"))
    }

    /// The modules of our SVG drawing (a white square, then one path of `M x,y h n v1 h-n z` runs), as
    /// rows of cells with the quiet zone; nil for anything else.
    static func cells(ofSVG svg: String) -> [[Bool]]? {
        guard let box = svg.firstRange(of: "viewBox=\"0 0 "),
            let side = Int(svg[box.upperBound...].prefix { $0.isNumber }),
            let start = svg.firstRange(of: " d=\""),
            let end = svg[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        var cells = [[Bool]](repeating: [Bool](repeating: false, count: side), count: side)
        for run in svg[start.upperBound..<end].split(separator: "z") {
            let numbers = run.split { !$0.isNumber }.compactMap { Int($0) }
            guard run.hasPrefix("M"), numbers.count == 5, numbers[2] == numbers[4], numbers[3] == 1 else {
                return nil
            }
            let (x, y, length) = (numbers[0], numbers[1], numbers[2])
            guard y < side, x + length <= side else { return nil }
            for column in x..<x + length { cells[y][column] = true }
        }
        return cells
    }

    /// The cells as a grayscale PNG, `scale` pixels a cell.
    static func png(_ cells: [[Bool]], scale: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        for row in cells {
            let line = row.flatMap { [UInt8](repeating: $0 ? 0 : 255, count: scale) }
            for _ in 0..<scale { pixels += line }
        }
        return PNG.grayscale(width: cells.count * scale, height: cells.count * scale, pixels: pixels)
    }
}
