// The TV table (`/tv?room=NAME`): a screen that watches a room (WATCH needs no name) while phones play.
// It keeps the room as model.js does, from the snapshot and the events, and shows the board as big as
// the screen allows, the scores, the last set taken (and who took it, on the board where it was taken
// and beside it), the countdown of a ready room, the vote in progress, the end screen with the
// standings, and always the QR code and the address to join (invite.js). It never gives up: a refused
// or lost connection is tried again, a room that does not exist yet is asked for again until a phone
// makes it, and a PING now and then keeps the server's idle timeout (which counts commands, and a
// watcher sends none) from closing it. Every element is built with createElement and textContent.

const $ = (id) => document.getElementById(id);
// A watcher says nothing by itself, and setd closes connections silent for --idle-timeout (600 s by
// default, at least 1 s): a PING a minute keeps any timeout of a minute or more, and shows a dead
// connection (no OK PING) within WAKE_CHECK_MS.
const KEEPALIVE_MS = 60000;
// How often a room that does not exist yet is asked for again.
const ROOM_RETRY_MS = 3000;
// How long news (a wrong claim, a chat line) stays in the strip before the vote or the hint comes back.
const NEWS_MS = 6000;

const tv = {
  room: new URLSearchParams(location.search).get("room"),
  watching: false,
  last: null,      // the last set taken: { name, cards }, or the last Matchismo move: { name, text }
  takenBy: null,   // the taker of the set whose new cards the next BOARD deals
  news: null,
  newsTimer: null,
  retryTimer: null,
};
let room = newRoom();

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function isSet() { return room.game !== "matchismo"; }

// ---- drawing ----

function renderAll() {
  renderBar();
  renderBoard();
  renderScores();
  renderLast();
  renderStrip();
  renderOver();
}

function renderBar() {
  $("tv-room").textContent = room.name || tv.room;
  // The logo says SET already: the game is named when it is another one, or a mode of it.
  const game = room.name ? gameName(room) : "SET";
  $("tv-game").textContent = (game === "SET" ? "" : game) + (room.locked ? (game === "SET" ? "" : " · ") + "locked" : "");
  let deck = "";
  if (tv.watching && room.status !== "waiting") {
    if (isSet()) deck = room.deck + (room.deck === 1 ? " card left" : " cards left");
    else if (room.turn) deck = room.turn + "'s turn";
  }
  $("tv-deck").textContent = deck;
  renderClock();
}

function renderClock() {
  const running = tv.watching && room.status === "playing" && room.started;
  // A timed or practice game shows the server's play clock (CLOCK: pauses left out), the time left and
  // the target, as the page does; any other game the time since the deal.
  const timed = running ? clockLabel(room, Date.now()) : "";
  $("tv-clock").textContent = timed || (running ? formatClock(Date.now() - room.started) : "");
}

function cardElement(pos, code) {
  const card = element("div", "card");
  card.dataset.card = code;
  card.dataset.pos = pos;
  if (isSet()) {
    card.classList.add("landscape");
    card.append(setCardArt(code, false, room.options.mode === "megaset"));
    card.setAttribute("aria-label", (pos ? pos + ": " : "") + describeSetCard(code));
  } else {
    const c = parsePlayingCard(code);
    card.classList.add("playing");
    if (c && c.down) card.classList.add("down");
    if (c && c.matched) card.classList.add("matched");
    card.append(playingCardArt(code));
    card.setAttribute("aria-label", (pos ? pos + ": " : "") + describePlayingCard(code));
  }
  if (pos) card.append(element("span", "pos", pos));
  return card;
}

function renderBoard() {
  const board = $("tv-board");
  const cards = room.board;
  board.className = "tv-board " + (isSet() ? "set" : "matchismo");
  board.hidden = !tv.watching || room.status === "waiting";
  board.dataset.rev = String(room.rev);
  // SET: the page's and set-cli's places (columns of three, two bands past 24 cards: MegaSet's 48).
  const layout = boardPlaces(cards.length);
  const columns = isSet() ? Math.max(4, layout.columns) : 10;
  const rows = isSet() ? layout.rows : Math.max(3, Math.ceil(cards.length / 10));
  board.style.setProperty("--cols", String(columns));
  board.style.setProperty("--rows", String(rows));
  board.style.setProperty("--aspect", isSet() ? "1.5" : String(5 / 7));
  const taken = room.taken || new Set();
  board.replaceChildren(...cards.map(({ pos, code }, i) => {
    const card = cardElement(pos, code);
    if (isSet()) { card.style.gridRow = String(layout.places[i].row + 1); card.style.gridColumn = String(layout.places[i].column + 1); }
    if (taken.has(pos) && tv.last) {
      card.classList.add("taken");
      card.dataset.takenBy = tv.last.name;
      card.append(element("span", "taken-by", tv.last.name));
    }
    return card;
  }));
}

function renderScores() {
  const scorer = tv.last && tv.last.cards ? tv.last.name : null;
  $("tv-scores").replaceChildren(...standings(room.players).map((p) => {
    const item = element("li", (p.online ? "online" : "away") + (p.name === scorer ? " scored" : ""));
    item.dataset.player = p.name;
    item.append(element("span", "dot"));
    const who = element("span", "who", p.name);
    const tags = [];
    if (p.name === room.host) tags.push("host");
    if (!p.online) tags.push("away");
    if (room.status === "waiting" && room.ready.has(p.name)) tags.push("ready");
    if (!isSet() && room.turn === p.name) tags.push("to play");
    if (room.proposal && room.proposal.voters.includes(p.name)) tags.push("votes for a new game");
    if (tags.length) who.append(" ", element("span", "tag", "(" + tags.join(", ") + ")"));
    item.append(who, element("span", "score", String(p.score)));
    return item;
  }));
}

function renderLast() {
  const last = tv.last;
  $("tv-last").hidden = !tv.watching || !last;
  if (!last) return;
  if (last.cards) {
    $("tv-last-title").textContent = last.name + " took the last set";
    $("tv-last").dataset.takenBy = last.name;
    $("tv-last-cards").replaceChildren(...last.cards.map((code) => cardElement("", code)));
  } else {
    $("tv-last-title").textContent = "Last move";
    $("tv-last").dataset.takenBy = last.name;
    $("tv-last-cards").replaceChildren(element("p", "tv-last-text", last.name + ": " + last.text));
  }
}

function renderStrip() {
  const strip = $("tv-strip");
  if (!tv.watching) { strip.className = "tv-strip"; strip.textContent = ""; return; }
  if (tv.news) { strip.className = "tv-strip " + tv.news.kind; strip.textContent = tv.news.text; return; }
  strip.className = "tv-strip" + (room.proposal && room.status !== "waiting" ? " vote" : "");
  strip.textContent = tvStripText(room);
}

function news(text, kind) {
  tv.news = { text, kind };
  clearTimeout(tv.newsTimer);
  tv.newsTimer = setTimeout(() => { tv.news = null; renderStrip(); }, NEWS_MS);
  renderStrip();
}

function renderOver() {
  const over = tv.watching && room.status === "over" && room.over;
  $("tv-over").hidden = !over;
  if (!over) return;
  const best = room.over[0];
  $("tv-over-title").textContent = best ? best.name + " wins!" : "Game over";
  const ranked = standings(new Map(room.over.map((r) => [r.name, { score: r.score, online: true }])));
  $("tv-standings").replaceChildren(...ranked.map((r) => {
    const item = element("li", r.rank === 1 ? "first" : "");
    item.dataset.player = r.name;
    item.append(element("span", "rank", r.rank + "."), element("span", "who", r.name),
      element("span", "score", String(r.score)));
    const row = room.sheet.find((s) => s.name === r.name);
    if (row) {
      item.append(element("span", "stats", row.sets + (isSet() ? " sets" : " matches") + ", " + row.wrong +
        " wrong" + (isSet() ? ", fastest " + formatSeconds(row.fastest) + ", mean " + formatSeconds(row.mean) : "")));
    }
    return item;
  }));
  $("tv-duration").textContent = room.duration !== null ? "Game length " + formatClock(room.duration) : "";
  // The night's standings (STANDING lines), in one line under the game's: points 3/2/1 by place.
  const night = room.standings.rows;
  $("tv-night").textContent = night.length === 0 ? "" : "Tonight, " + room.standings.games +
    (room.standings.games === 1 ? " game: " : " games: ") + night.map((r) => r.name + " " + r.points).join(" · ") + " points";
}

function showCountdown(n) {
  $("tv-countdown").hidden = n === null;
  $("tv-countdown-n").textContent = n === null ? "" : String(n);
}

function showNotice(text) {
  $("tv-notice").hidden = text === null;
  $("tv-notice").textContent = text || "";
}

// The way to join: the code and the address, from this page's own origin (the one phones reach too,
// unless this screen opened setd at a loopback address, which it says).
function renderJoin() {
  $("tv-qr").src = qrPath(tv.room);
  $("tv-address").textContent = spokenAddress(location.origin);
  $("tv-join-room").textContent = "room " + tv.room;
  $("tv-qr").title = joinLink(location.origin, tv.room);
  $("tv-loopback").hidden = !isLoopbackHost(location.hostname);
}

// ---- the room from lines ----

function applySnapshot(lines) {
  room = newRoom();
  room.taken = new Set();
  tv.last = null;
  tv.takenBy = null;
  for (const line of lines) applyLine(room, line, true);
  showCountdown(room.countdown);
  renderAll();
}

function onEvent(line) {
  const w = wordsOf(line);
  const word = w[0];
  if (word === "BYE") { news("The server says: " + line.slice(4), "bad"); return; }
  if (!tv.watching) return;
  const wasStatus = room.status;
  const wasCards = room.board.length;
  if (word === "SET") {
    const taken = takenSet(line);
    if (taken) { tv.last = taken; tv.takenBy = taken.name; }
    renderScores();
    renderLast();
    return;
  }
  const changed = applyLine(room, line, false);
  switch (word) {
    case "BOARD":
      // The cards dealt where the set was taken; a board change of anything else clears the ring, and so
      // does a board that closed up (an empty deck, or back to twelve cards), where cards moved instead.
      room.taken = tv.takenBy && room.board.length >= wasCards ? new Set(room.fresh) : new Set();
      tv.takenBy = null;
      room.fresh.clear();
      renderBoard();
      renderBar();
      return;
    case "ROOM":
      if (wasStatus === "waiting" && room.status !== "waiting") showCountdown(null);
      renderAll();
      return;
    case "COUNTDOWN":
      showCountdown(room.countdown);
      if (w[1] === "-") news("The countdown stopped: somebody is not ready yet.", "bad");
      renderStrip();
      return;
    case "NEWGAME":
      room.taken = new Set();
      tv.last = null;
      showCountdown(null);
      news(w[1] + " started a new game.", "good");
      renderAll();
      return;
    case "WRONG": {
      const colon = w.indexOf(":");
      news(w[1] + " claimed cards that are not a set" + (colon > 0 ? " (" + w.slice(colon + 1).join(" ") + ")" : "") +
        (w[2] && w[2] !== "0" ? ", −" + w[2] : "") + ".", "bad");
      return;
    }
    case "CHOSE":
      tv.last = { name: w[1], text: w.slice(3).join(" ") };
      renderLast();
      renderScores();
      return;
    case "CHAT": news(w[1] + ": " + line.slice(6 + w[1].length), "news"); return;
    case "JOINED": news(w[1] + " joined.", "good"); return;
    case "VOTE": tv.news = null; renderStrip(); renderScores(); return;
    case "KICKED": news(w[2] + " (the host) removed " + w[1] + ".", "bad"); return;
    default:
      if (changed) renderAll();
  }
}

// ---- the session: watch, and keep watching ----

function watchRoom() {
  clearTimeout(tv.retryTimer);
  send("WATCH " + tv.room, (reply) => {
    if (reply.ok) {
      tv.watching = true;
      showNotice(null);
      applySnapshot(reply.data);
      return;
    }
    tv.watching = false;
    renderAll();
    if (reply.code === "NOSUCHROOM") {
      showNotice("No room " + tv.room + " yet. Scan the code with a phone to make it and play: this screen " +
        "shows the game as soon as it exists.");
      tv.retryTimer = setTimeout(watchRoom, ROOM_RETRY_MS);
    } else if (reply.code === "DENIED") {
      // A private room answers as no room at all; DENIED is a kick held on this screen's address.
      showNotice("Cannot watch " + tv.room + ": " + reply.text);
    } else {
      showNotice("Cannot watch " + tv.room + ": " + reply.text);
      tv.retryTimer = setTimeout(watchRoom, ROOM_RETRY_MS);
    }
  });
}

function setStatus(state, delay) {
  const status = $("status");
  status.classList.toggle("offline", state !== "online");
  status.classList.toggle("ok", state === "online");
  status.textContent = state === "online" ? "online" : state === "connecting" ? "connecting…" :
    "offline, retrying in " + Math.ceil(delay / 1000) + " s";
}

function keepAlive() {
  if (!isOpen() || !connection.greeted) return;
  let answered = false;
  send("PING", () => { answered = true; });
  setTimeout(() => { if (!answered) dropConnection(); }, WAKE_CHECK_MS);
}

if (tv.room !== null && isName(tv.room)) {
  $("tv-main").hidden = false;
  renderJoin();
  renderAll();
  connection.onGreeting = () => { setStatus("online"); watchRoom(); };
  connection.onEvent = onEvent;
  connection.onState = setStatus;
  // A TV table is nobody's seat: whatever closed it (idle, a restart, the network), it connects again.
  connection.onClosed = () => {
    tv.watching = false;
    clearTimeout(tv.retryTimer);
    setStatus("offline", RECONNECT_MIN_MS);
    scheduleReconnect();
  };
  setInterval(keepAlive, KEEPALIVE_MS);
  setInterval(renderClock, 1000);
  connect();
} else {
  $("tv-pick").hidden = false;
  $("status").textContent = "";
  if (tv.room !== null) $("tv-pick-input").value = tv.room;
  $("tv-pick-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("tv-pick-input").value.trim();
    if (isName(name)) location.search = "?room=" + encodeURIComponent(name);
  });
}
