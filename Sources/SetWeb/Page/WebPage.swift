/// The page `GET /` serves: one self-contained HTML document (nothing loaded from elsewhere, since a
/// LAN may have no internet).
///
/// This is a minimal, honest page: it connects to `/ws` and shows the protocol's lines, with a line to
/// type commands. The game table replaces it; the API stays `WebPage.html`.
public enum WebPage {
    /// The page's HTML; the server serves its UTF-8 bytes.
    public static let html: String = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>setd</title>
        <style>
        body { font: 15px/1.4 ui-monospace, monospace; margin: 1em; }
        #log { white-space: pre-wrap; border: 1px solid #888; padding: .5em; height: 60vh; overflow-y: auto; }
        #line { width: 100%; box-sizing: border-box; font: inherit; padding: .4em; margin-top: .5em; }
        </style>
        </head>
        <body>
        <h1>setd</h1>
        <p id="status">connecting…</p>
        <div id="log"></div>
        <input id="line" autocomplete="off" placeholder="type a command, e.g. HELLO alice, then JOIN fun">
        <script>
        "use strict";
        const log = document.getElementById("log");
        const status = document.getElementById("status");
        const input = document.getElementById("line");
        function show(text) {
          const line = document.createElement("div");
          line.textContent = text;
          log.appendChild(line);
          log.scrollTop = log.scrollHeight;
        }
        const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
        ws.onopen = () => { status.textContent = "connected"; };
        ws.onmessage = (event) => {
          show(event.data);
          if (event.data.startsWith("PING ")) ws.send("PING");
        };
        ws.onclose = (event) => { status.textContent = "closed (" + event.code + ")"; };
        input.addEventListener("keydown", (event) => {
          if (event.key !== "Enter" || input.value === "") return;
          ws.send(input.value);
          show("> " + input.value);
          input.value = "";
        });
        </script>
        </body>
        </html>

        """
}
