import Foundation
import SetTestSupport
import SetWeb
import Testing

/// The page's script is checked and unit-tested like any code: `node --check` on every script file and
/// on the script as the page serves it, and `node --test Tests/Page` on its pure parts (reply pairing,
/// the view of the room, the rules, times). Node is Debian's `nodejs`, which `.ci/run` installs; without
/// it these tests fail and say how to get it, they never skip.
@Suite struct PageScriptTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let page = root.appendingPathComponent("Sources/SetWeb/Page")

    /// The node program, or a recorded failure saying how to get it.
    private static func node(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let path = programOnPath("node") ?? programOnPath("nodejs") else {
            let advice = "(Debian: apt-get install nodejs; .ci/run installs it)"
            Issue.record(
                "node is not installed: the page's script is checked and unit-tested with it \(advice)",
                sourceLocation: sourceLocation)
            return nil
        }
        return path
    }

    @Test("node --check accepts every script file and the script the page serves")
    func theScriptParses() throws {
        guard let node = Self.node() else { return }
        let files = try TemporaryDirectory("page-script")
        defer { files.remove() }
        let served = files.path + "/served.js"
        try Data(WebPage.script.utf8).write(to: URL(fileURLWithPath: served))
        for path in WebPage.scriptFiles.map({ Self.page.appendingPathComponent($0).path }) + [served] {
            let result = try Child.run(node, ["--check", path], timeout: 30)
            #expect(result.status == 0, "node --check \(path) failed")
        }
    }

    @Test("node --test Tests/Page: reply pairing, the view of the room, the rules and times")
    func thePureRunsItsUnitTests() throws {
        guard let node = Self.node() else { return }
        let child = try Child(node, ["--test", Self.root.appendingPathComponent("Tests/Page").path])
        guard let status = child.wait(timeout: 60) else {
            child.stop()
            Issue.record("node --test took over a minute: \(child.output)")
            return
        }
        let output = child.output(within: 2) + child.errors(within: 1)
        #expect(status == 0, "node --test Tests/Page failed:\n\(output)")
        #expect(output.contains("# fail 0") && !output.contains("# pass 0"), "\(output)")
    }

    @Test("The page is its files: every script file in order, the style, and nothing left to fill in")
    func thePageIsItsFiles() throws {
        let html = WebPage.html
        #expect(!html.contains("setd:style") && !html.contains("setd:script"))
        var last = html.startIndex
        for name in WebPage.scriptFiles {
            let source = try String(contentsOf: Self.page.appendingPathComponent(name), encoding: .utf8)
            let range = try #require(html.range(of: source), "\(name) is not in the page whole")
            #expect(range.lowerBound >= last, "\(name) comes after the files before it")
            last = range.upperBound
        }
        let style = try String(contentsOf: Self.page.appendingPathComponent("page.css"), encoding: .utf8)
        #expect(html.contains(style))
        // A script inside a page ends at the first `</script`; none may hide in the code.
        #expect(html.components(separatedBy: "</script").count == 2)
        #expect(WebPage.script.hasPrefix("const REPLY_SHAPES = {"))
    }
}
