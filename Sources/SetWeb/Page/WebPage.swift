/// The browser page that `GET /` serves: one self-contained HTML document, its style, script and card
/// art embedded, so that nothing is loaded from elsewhere (a LAN may have no internet).
///
/// The page is real files beside this one, embedded in the binary when it is built (SwiftPM resources,
/// `.embedInCode`: no bundle to ship, no Foundation): `page.html` (the markup, with a place for the style
/// and one for the script), `page.css`, `replies.json` (the shapes of the replies that have data lines,
/// checked against `ServerLine` by the tests), and the script in four files, in this order:
/// `model.js` (the pure parts — reply pairing, the view of the room, the rules, times — which
/// `node --test Tests/Page` unit-tests), `cards.js` (card art), `connection.js` (the socket,
/// reconnecting) and `table.js` (the game table). The script speaks protocol.md over `GET /ws`, one line
/// per WebSocket text frame, and builds every element with `createElement` and `textContent`: server text
/// never reaches `innerHTML`.
public enum WebPage {
    /// The script files, in the order the page runs them (one scope: later files use earlier ones).
    public static let scriptFiles = ["model.js", "cards.js", "connection.js", "table.js"]

    /// The page's script: the table of reply shapes, then the script files.
    public static let script: String =
        "const REPLY_SHAPES = " + text(PackageResources.replies_json) + ";\n"
        + [
            PackageResources.model_js, PackageResources.cards_js, PackageResources.connection_js,
            PackageResources.table_js,
        ].map(text).joined(separator: "\n")

    /// The whole page, HTML with the CSS and JavaScript inline.
    public static let html: String = {
        let page = text(PackageResources.page_html)
        return
            page
            .replacing("/* setd:style */", with: text(PackageResources.page_css))
            .replacing("/* setd:script */", with: script)
    }()

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
