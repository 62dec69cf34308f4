/// The browser page that `GET /` serves: one self-contained HTML document, its style, script and card
/// art embedded, so that nothing is loaded from elsewhere (a LAN may have no internet).
///
/// The page speaks protocol.md over `GET /ws`, one line per WebSocket text frame. Its parts live in
/// `WebPage+Style.swift` (CSS), `WebPage+Body.swift` (markup and the SVG patterns), and three script
/// files: `WebPage+Cards.swift` (card art), `WebPage+Connection.swift` (the socket, reconnecting and
/// reply pairing) and `WebPage+Table.swift` (the game table). The script builds every element with
/// `createElement` and `textContent`: server text never reaches `innerHTML`.
public enum WebPage {
    /// The whole page, HTML with the CSS and JavaScript inline.
    public static let html: String =
        head + "<style>\n" + style + "</style>\n</head>\n" + body
        + "<script>\n\"use strict\";\n(() => {\n" + cardsScript + connectionScript + tableScript
        + "})();\n</script>\n</body>\n</html>\n"

    /// The document's start: the viewport for phones, the title, and an icon inline (so the browser
    /// asks for no `/favicon.ico`).
    static let head = ##"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="theme-color" content="#123d27">
        <title>SET · setd</title>
        <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%23fff'/%3E%3Cpath d='M16 5L28 26H4Z' fill='%236a2a95'/%3E%3C/svg%3E">

        """##
}
