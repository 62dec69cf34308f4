import Foundation
import SetTestSupport
import SetTestTraits
import SetWeb
import Testing

/// The pages' scripts are checked and unit-tested like any code: `node --check` on every script file and
/// on the scripts as the page and the TV table serve them, and `node --test Tests/Page` on their pure
/// parts (reply pairing, the view of the room, the rules, times, the join link, the TV's standings). Node is Debian's `nodejs`, which `.ci/run` installs; without
/// it these tests fail and say how to get it, they never skip.
@Suite(.ownThread) struct PageScriptTests {
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

    @Test("node --check accepts every script file and the scripts the page and the TV table serve")
    func theScriptParses() throws {
        guard let node = Self.node() else { return }
        let files = try TemporaryDirectory("page-script")
        defer { files.remove() }
        let served = files.path + "/served.js"
        try Data(WebPage.script.utf8).write(to: URL(fileURLWithPath: served))
        let servedTV = files.path + "/served-tv.js"
        try Data(WebPage.tvScript.utf8).write(to: URL(fileURLWithPath: servedTV))
        let names = WebPage.scriptFiles + WebPage.tvScriptFiles.filter { !WebPage.scriptFiles.contains($0) }
        for path in names.map({ Self.page.appendingPathComponent($0).path }) + [served, servedTV] {
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

    @Test(
        "The page and the TV table are their files: every script file in order, the styles, the card patterns, and nothing left to fill in",
        arguments: ["page", "tv"])
    func thePageIsItsFiles(_ which: String) throws {
        let isTV = which == "tv"
        let html = isTV ? WebPage.tvHTML : WebPage.html
        let scripts = isTV ? WebPage.tvScriptFiles : WebPage.scriptFiles
        let styles = isTV ? ["page.css", "tv.css"] : ["page.css"]
        let script = isTV ? WebPage.tvScript : WebPage.script
        #expect(!html.contains("setd:style") && !html.contains("setd:script") && !html.contains("setd:defs"))
        var last = html.startIndex
        for name in scripts {
            let source = try String(contentsOf: Self.page.appendingPathComponent(name), encoding: .utf8)
            let range = try #require(html.range(of: source), "\(name) is not in the page whole")
            #expect(range.lowerBound >= last, "\(name) comes after the files before it")
            last = range.upperBound
        }
        last = html.startIndex
        for name in styles {
            let style = try String(contentsOf: Self.page.appendingPathComponent(name), encoding: .utf8)
            let range = try #require(html.range(of: style), "\(name) is not in the page whole")
            #expect(range.lowerBound >= last, "\(name) comes after the styles before it")
            last = range.upperBound
        }
        let defs = try String(contentsOf: Self.page.appendingPathComponent("defs.svg"), encoding: .utf8)
        #expect(html.contains(defs))
        // A script inside a page ends at the first `</script`; none may hide in the code.
        #expect(html.components(separatedBy: "</script").count == 2)
        #expect(script.hasPrefix("const REPLY_SHAPES = {"))
    }
}
