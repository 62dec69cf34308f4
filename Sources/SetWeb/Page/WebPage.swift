/// The browser pages: `GET /` serves the page, `GET /tv` the TV table; each is one self-contained HTML
/// document, its style, script and card art embedded, so that nothing is loaded from elsewhere (a LAN
/// may have no internet) but the room's QR code, from this server (`/qr.svg`).
///
/// The pages are real files beside this one, embedded in the binary when it is built (SwiftPM
/// resources, `.embedInCode`: no bundle to ship, no Foundation): `page.html` and `tv.html` (the markup,
/// with a place for the card patterns of `defs.svg`, one for the style and one for the script),
/// `page.css` and `tv.css` (the TV's style comes after the page's, whose cards and panels it keeps), `replies.json` (the shapes of the replies that have data lines, checked
/// against `ServerLine` by the tests), and the scripts in files that both pages share: `model.js` (the
/// pure parts — reply pairing, the view of the room, the rules, times), `cards.js` (card art),
/// `connection.js` (the socket, reconnecting) and `invite.js` (the join link, pure); then the page's
/// `table.js` (the game table), or the TV's `tvmodel.js` (its pure parts) and `tv.js`. The replay viewer
/// (`/replay/<id>`, `replay.html` and `replay.css`) runs `model.js`, `cards.js`, `replaymodel.js` (the
/// record rebuilt step by step, pure; the page runs it too, for its links to the viewer) and `replay.js`,
/// and reads the record from `GET /games/<id>`. The pure files are
/// unit-tested with `node --test Tests/Page`. The scripts speak protocol.md over `GET /ws`, one line per
/// WebSocket text frame, and build every element with `createElement` and `textContent`: server text
/// never reaches `innerHTML`.
public enum WebPage {
    /// The page's script files, in the order the page runs them (one scope: later files use earlier
    /// ones).
    public static let scriptFiles = [
        "model.js", "cards.js", "connection.js", "invite.js", "replaymodel.js", "table.js",
    ]

    /// The TV table's script files, in the order it runs them: the page's own modules, then its own.
    public static let tvScriptFiles = [
        "model.js", "cards.js", "connection.js", "invite.js", "tvmodel.js", "tv.js",
    ]

    /// The page's script: the table of reply shapes, then the script files.
    public static let script: String = script([
        PackageResources.model_js, PackageResources.cards_js, PackageResources.connection_js,
        PackageResources.invite_js, PackageResources.replaymodel_js, PackageResources.table_js,
    ])

    /// The TV table's script: the table of reply shapes, then its script files.
    public static let tvScript: String = script([
        PackageResources.model_js, PackageResources.cards_js, PackageResources.connection_js,
        PackageResources.invite_js, PackageResources.tvmodel_js, PackageResources.tv_js,
    ])

    /// The replay viewer's script files, in the order it runs them.
    public static let replayScriptFiles = ["model.js", "cards.js", "replaymodel.js", "replay.js"]

    /// The replay viewer's script: the table of reply shapes, then its script files.
    public static let replayScript: String = script([
        PackageResources.model_js, PackageResources.cards_js, PackageResources.replaymodel_js,
        PackageResources.replay_js,
    ])

    /// The whole replay viewer (`/replay/<id>`), HTML with the CSS (the page's, then its own) and
    /// JavaScript inline: the same for every game, whose id the script reads from the address.
    public static let replayHTML: String = document(
        PackageResources.replay_html,
        PackageResources.page_css + Array("\n".utf8) + PackageResources.replay_css, replayScript)

    /// ``replayHTML`` as bytes, made once.
    public static let replayBytes: [UInt8] = Array(replayHTML.utf8)

    /// The whole page, HTML with the CSS and JavaScript inline.
    public static let html: String = document(PackageResources.page_html, PackageResources.page_css, script)

    /// The whole TV table (`/tv`), HTML with the CSS (the page's, then the TV's) and JavaScript inline.
    public static let tvHTML: String = document(
        PackageResources.tv_html, PackageResources.page_css + Array("\n".utf8) + PackageResources.tv_css,
        tvScript)

    /// ``tvHTML`` as bytes, made once.
    public static let tvBytes: [UInt8] = Array(tvHTML.utf8)

    private static func script(_ files: [[UInt8]]) -> String {
        "const REPLY_SHAPES = " + text(PackageResources.replies_json) + ";\n"
            + files.map(text).joined(separator: "\n")
    }

    private static func document(_ html: [UInt8], _ css: [UInt8], _ script: String) -> String {
        text(html)
            .replacing("<!-- setd:defs -->\n", with: text(PackageResources.defs_svg))
            .replacing("/* setd:style */", with: text(css))
            .replacing("/* setd:script */", with: script)
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
