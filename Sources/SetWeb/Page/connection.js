// The connection: the WebSocket to /ws (one protocol line per text frame), reconnecting by itself with
// backoff, and every line through the reply tracker of model.js, so that OK/ERR lines end the oldest
// outstanding command, the last <n> lines before it are its data, and every other line is an event.

const RECONNECT_MIN_MS = 500, RECONNECT_MAX_MS = 15000;
// How long a wake-up check waits for `OK PING` before it calls the connection dead (a phone that slept
// may hold a socket the server dropped long ago).
const WAKE_CHECK_MS = 4000;

const connection = {
  socket: null, tracker: makeReplyTracker(REPLY_SHAPES), greeted: false, attempt: 0, timer: null, bye: null,
  onGreeting: () => {}, onEvent: () => {}, onState: () => {}, onClosed: () => {},
};

function isOpen() { return connection.socket !== null && connection.socket.readyState === WebSocket.OPEN; }

function connect() {
  clearTimeout(connection.timer);
  connection.timer = null;
  if (connection.socket) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let socket;
  try { socket = new WebSocket(scheme + location.host + "/ws"); } catch (e) { scheduleReconnect(); return; }
  connection.socket = socket;
  connection.tracker.dropAll();
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
    for (const p of connection.tracker.dropAll()) if (p.tag && p.tag.onFail) p.tag.onFail();
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
  connection.tracker.sent(firstWord(line), { onReply, onFail });
  connection.socket.send(line);
  return true;
}

function receive(line) {
  if (!connection.greeted && line.startsWith("SETD ")) {
    connection.greeted = true;
    connection.attempt = 0;
    connection.onGreeting(line);
    return;
  }
  for (const item of connection.tracker.receive(line)) {
    if (item.reply) { if (item.tag.onReply) item.tag.onReply(item.reply); continue; }
    const text = item.event || item.unexpected;
    if (firstWord(text) === "BYE") connection.bye = text.slice(4);
    connection.onEvent(text);
  }
}
