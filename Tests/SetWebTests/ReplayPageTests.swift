import Foundation
import SetTestSupport
import SetTestTraits
import SetWeb
import Testing

/// The replay viewer (issue 25): `/replay/<id>` is its page for a well-formed id and 400 otherwise, and
/// the page is its files, whose script node accepts.
@Suite(.ownThread) struct ReplayPageTests {
    private static let page = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SetWeb/Page")

    private func reply(_ target: String) throws -> WebRouter.Reply {
        WebRouter.reply(to: try #require(parsedHead(head("GET \(target) HTTP/1.1", "Host: h"))), page: [])
    }

    @Test func aGameIdIsTheViewerAndAnythingElseIsABadRequest() throws {
        // (A browser keeps the step, `#3`, to itself: it never reaches the server.)
        for target in ["/replay/0123456789abcdef", "/replay/0123456789abcdef/"] {
            let answer = try reply(target)
            #expect(answer.response.status == .ok, "\(target)")
            #expect(answer.response.value("Content-Type") == "text/html; charset=utf-8")
            #expect(answer.response.body == WebPage.replayBytes)
            #expect(answer.keepsAlive)
        }
        for target in ["/replay/", "/replay/0123456789ABCDEF", "/replay/0123456789abcde", "/replay/x/y"] {
            let answer = try reply(target)
            #expect(answer.response.status == .badRequest, "\(target)")
            #expect(String(decoding: answer.response.body, as: UTF8.self).contains("16 hex digits"))
        }
        #expect(try reply("/replayx").response.status == .notFound)
    }

    @Test func theViewerIsItsFilesInOrder() throws {
        let html = WebPage.replayHTML
        #expect(!html.contains("setd:style") && !html.contains("setd:script") && !html.contains("setd:defs"))
        var last = html.startIndex
        for name in WebPage.replayScriptFiles + ["page.css", "replay.css"] {
            let source = try String(contentsOf: Self.page.appendingPathComponent(name), encoding: .utf8)
            let range = try #require(html.range(of: source), "\(name) is not in the viewer whole")
            if name.hasSuffix(".js") {
                #expect(range.lowerBound >= last, "\(name) comes after the scripts before it")
                last = range.upperBound
            }
        }
        #expect(html.components(separatedBy: "</script").count == 2)
        // The page runs the pure part too, for its links to the viewer.
        #expect(WebPage.scriptFiles.contains("replaymodel.js"))
    }

    @Test func nodeAcceptsTheViewersScript() throws {
        guard let node = programOnPath("node") ?? programOnPath("nodejs") else {
            Issue.record("node is not installed (Debian: apt-get install nodejs; .ci/run installs it)")
            return
        }
        let files = try TemporaryDirectory("replay-script")
        defer { files.remove() }
        let served = files.path + "/served-replay.js"
        try Data(WebPage.replayScript.utf8).write(to: URL(fileURLWithPath: served))
        for path in [served, Self.page.appendingPathComponent("replay.js").path] {
            #expect(try Child.run(node, ["--check", path], timeout: 30).status == 0, "node --check \(path)")
        }
    }
}
