extension WebPage {
    /// The connection, in JavaScript: the WebSocket to `/ws` (one protocol line per text frame),
    /// reconnecting by itself with backoff, and the pairing of replies with commands that protocol.md's
    /// "Telling data from events" describes: `OK`/`ERR` lines end the oldest outstanding command, the
    /// last `<n>` lines before it are its data (`<n>` the final line's last word), and every other line
    /// is an event.
    static let connectionScript = ##"""
        // Replies that carry data lines: how many words their final line has when it carries a count (the
        // count is the last), and the first words their data lines can have.
        const SNAPSHOT_WORDS = ["ROOM", "OPTIONS", "BOARD", "DECK", "CHAIN", "TURN", "PLAYER", "HOST"];
        const REPLY_DATA = {
          HELP: { words: 3, data: ["HELP"] },
          ROOMS: { words: 3, data: ["ROOM"] },
          JOIN: { words: 4, data: SNAPSHOT_WORDS },
          WATCH: { words: 4, data: SNAPSHOT_WORDS },
          STATE: { words: 3, data: SNAPSHOT_WORDS },
          RESUME: { words: 5, data: SNAPSHOT_WORDS },  // `OK RESUME <name>` (3 words) has no data
          HINT: { words: 3, data: ["HINT"] },
          HISTORY: { words: 3, data: ["HISTORY"] },
          STATS: { words: 3, data: ["RATING"] },
          TOP: { words: 3, data: ["TOP"] },
        };
        // Lines that are never data: one of them arriving while a reply's data may be coming says that
        // the lines held back before it were events, since a reply's lines are never split.
        const EVENT_ONLY = new Set(["JOINED", "LEFT", "SET", "WRONG", "CHOSE", "CHAT", "NEWGAME", "VOTE", "OVER",
          "PING", "BYE", "STATS", "DURATION", "READY", "COUNTDOWN", "KICKED", "LOCKED", "UNLOCKED"]);
        const RECONNECT_MIN_MS = 500, RECONNECT_MAX_MS = 15000;
        // How long a wake-up check waits for `OK PING` before it calls the connection dead (a phone that
        // slept may hold a socket the server dropped long ago).
        const WAKE_CHECK_MS = 4000;

        const connection = {
          socket: null, pending: [], held: [], greeted: false, attempt: 0, timer: null, bye: null,
          onGreeting: () => {}, onEvent: () => {}, onState: () => {}, onClosed: () => {},
        };

        function firstWord(line) {
          const i = line.indexOf(" ");
          return i < 0 ? line : line.slice(0, i);
        }

        /** Splits a line into words on runs of spaces and tabs, as the server does. */
        function wordsOf(line) { return line.split(/[ \t]+/).filter((w) => w.length > 0); }

        function isOpen() { return connection.socket !== null && connection.socket.readyState === WebSocket.OPEN; }

        function connect() {
          clearTimeout(connection.timer);
          connection.timer = null;
          if (connection.socket) return;
          const scheme = location.protocol === "https:" ? "wss://" : "ws://";
          let socket;
          try { socket = new WebSocket(scheme + location.host + "/ws"); } catch (e) { scheduleReconnect(); return; }
          connection.socket = socket;
          connection.pending = [];
          connection.held = [];
          connection.greeted = false;
          connection.bye = null;
          connection.onState("connecting");
          socket.onmessage = (message) => {
            if (socket !== connection.socket || typeof message.data !== "string") return;
            for (const line of message.data.split("\n")) {
              const text = line.endsWith("\r") ? line.slice(0, -1) : line;
              if (text.length > 0) receive(text);
            }
          };
          socket.onclose = (event) => {
            if (socket !== connection.socket) return;
            connection.socket = null;
            const pending = connection.pending;
            connection.pending = [];
            connection.held = [];
            for (const p of pending) if (p.onFail) p.onFail();
            connection.onClosed(connection.bye, event);
          };
          socket.onerror = () => {};  // onclose follows and decides
        }

        function scheduleReconnect() {
          if (connection.timer || connection.socket) return;
          const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** connection.attempt);
          connection.attempt += 1;
          connection.onState("offline", base);
          connection.timer = setTimeout(() => { connection.timer = null; connect(); }, base * (0.75 + Math.random() / 2));
        }

        function reconnectNow() {
          connection.attempt = 0;
          clearTimeout(connection.timer);
          connection.timer = null;
          connect();
        }

        function dropConnection() {
          if (connection.socket) connection.socket.close();
        }

        /**
         * Sends one command; `onReply(reply)` gets its final line with the reply's data lines:
         * `{ ok, verb, line, words, code, text, data }` (`code`/`text` for an `ERR`).
         */
        function send(line, onReply, onFail) {
          if (!isOpen() || !connection.greeted) { if (onFail) onFail(); return false; }
          const verb = firstWord(line).toUpperCase();
          connection.pending.push({ verb, shape: REPLY_DATA[verb], onReply, onFail });
          connection.socket.send(line);
          return true;
        }

        function receive(line) {
          if (!connection.greeted) {
            if (line.startsWith("SETD ")) {
              connection.greeted = true;
              connection.attempt = 0;
              connection.onGreeting(line);
              return;
            }
          }
          const word = firstWord(line);
          if (word === "OK" || word === "ERR") { finish(line); return; }
          const oldest = connection.pending[0];
          if (oldest && oldest.shape) {
            // Possibly this reply's data: hold it until the final line says how many lines are data. A
            // word this page does not know may be a newer data line, so it is held too.
            if (oldest.shape.data.includes(word) || !EVENT_ONLY.has(word)) { connection.held.push(line); return; }
            releaseHeld();
          }
          if (word === "BYE") connection.bye = line.slice(4);
          connection.onEvent(line);
        }

        function releaseHeld() {
          const held = connection.held;
          connection.held = [];
          for (const line of held) connection.onEvent(line);
        }

        function finish(line) {
          const words = wordsOf(line);
          const request = connection.pending.shift();
          let count = 0;
          if (request && request.shape && words[0] === "OK" && words.length >= request.shape.words) {
            count = Math.min(connection.held.length, Math.max(0, parseInt(words[words.length - 1], 10) || 0));
          }
          const data = connection.held.splice(connection.held.length - count, count);
          releaseHeld();
          const reply = {
            ok: words[0] === "OK", verb: words[1] || "", line, words, data,
            code: words[0] === "ERR" ? words[2] || "" : "",
            text: words[0] === "ERR" ? words.slice(3).join(" ") : words.slice(2).join(" "),
          };
          if (!request) { connection.onEvent(line); return; }  // `ERR - FULL` before any command
          if (request.onReply) request.onReply(reply);
        }

        """##
}
