// The game table: the session (RESUME with the stored token, HELLO when it is refused, WATCH without a
// name for a spectator link), the room as model.js keeps it, the board and its selection (taps, and the
// letters on a keyboard), the scoreboard with each player's actions, events and chat, the strip of news
// above the board, votes, the ready room, the host's menu, the score sheet, "How to play" and the tips.
// Every element is built with createElement and textContent: server text never reaches innerHTML.

const $ = (id) => document.getElementById(id);
const storage = {
  get(key) { try { return localStorage.getItem("setd." + key); } catch (e) { return null; } },
  set(key, value) {
    try { if (value === null) localStorage.removeItem("setd." + key); else localStorage.setItem("setd." + key, value); }
    catch (e) { /* private mode: nothing is remembered */ }
  },
};
const LOG_LIMIT = 200;
const HINT_SHOW_MS = 6000;
const STRIP_SHOW_MS = 6000;
// A phone: one column, the board first, portrait cards (the same columns of three as on a laptop).
const phone = window.matchMedia("(max-width: 759px)");

const params = new URLSearchParams(location.search);
const session = {
  me: null,                     // our name once HELLO or RESUME said it
  room: params.get("room"),     // the room we want to be in (the link's, or the lobby's choice)
  watching: params.get("watch") === "1",
  roomExtra: "",                // game and options for a room the lobby creates
  password: null,               // the password of a private room we asked for
  startOption: true,            // false once the server refused `start=ready` (an older setd)
  manual: null,                 // why we stopped reconnecting by ourselves
};
if (session.room !== null && !isName(session.room)) session.room = null;
const linkName = params.get("name");
if (linkName !== null && isName(linkName) && linkName !== storage.get("name")) {
  storage.set("name", linkName);
  storage.set("token", null);  // the token is another name's seat
}

let room = newRoom();
room.role = null;
// The cards picked so far, by position and code, and the revision at which the first was picked.
const selection = { cards: [], rev: null, inFlight: false };

// ---- small helpers ----

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

function button(text, className, onClick) {
  const b = element("button", className, text);
  b.type = "button";
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 3500);
}

// News for the strip above the board: shown for a few seconds, then the strip says the vote or what to
// do again. The strip keeps its height whatever it says, so the cards never move.
let stripNews = null;
let stripTimer = null;
function banner(text, kind) {
  stripNews = { text, kind: kind || "news" };
  clearTimeout(stripTimer);
  stripTimer = setTimeout(() => { stripNews = null; renderStrip(); }, STRIP_SHOW_MS);
  renderStrip();
}

function log(kind, ...parts) {
  const list = $("log");
  const item = element("li", kind);
  for (const part of parts) item.append(typeof part === "string" ? document.createTextNode(part) : part);
  list.append(item);
  while (list.children.length > LOG_LIMIT) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  return item;
}

function who(name) { return name === session.me ? "you" : name; }
function cardsNeeded() { return cardsPerClaim(setMode()); }
function setMode() { return room.options.mode || "normal"; }
function isSet() { return room.game !== "matchismo"; }
function amHost() { return room.role === "player" && room.host !== null && room.host === session.me; }
function isPlaying() { return room.role === "player" && room.status === "playing"; }

function openOverlay(id) { $(id).hidden = false; }
function closeOverlay(id) { $(id).hidden = true; }
function anyOverlayOpen() {
  return Array.from(document.querySelectorAll(".overlay")).some((o) => !o.hidden && o.id !== "countdown");
}

// ---- views ----

function showView(view) {
  $("lobby").hidden = view !== "lobby";
  $("table").hidden = view !== "table";
  $("side").hidden = view !== "table";
  $("app").classList.toggle("lobby-only", view === "lobby");
  $("btn-menu").hidden = view !== "table";
  $("btn-invite").hidden = view !== "table";
  if (view === "lobby") {
    $("title").textContent = session.me ? "setd · " + session.me : "setd";
    $("chat-badge").hidden = true;
    refreshRooms();
  } else {
    showTipsOnce();
  }
}

function renderAll() {
  renderTitle();
  renderBoard();
  renderChain();
  renderFound();
  renderScores();
  renderControls();
  renderWaiting();
  renderStrip();
}

function renderTitle() {
  const mode = isSet() ? (room.options.mode && room.options.mode !== "normal" ? " " + room.options.mode : "") : "";
  const practice = isSet() && room.options.practice === "on" ? " · practice" : "";
  $("title").textContent = (room.name || "") + " · " + (isSet() ? "SET" : "Matchismo") + mode + practice +
    (room.role === "spectator" ? " · watching" : "") + (room.locked ? " · locked" : "");
}

function cardButton(pos, code, portrait) {
  const b = element("button", "card");
  b.type = "button";
  b.dataset.card = code;
  b.dataset.pos = pos;
  if (isSet()) {
    if (!portrait) b.classList.add("landscape");
    b.append(setCardArt(code, portrait, setMode() === "megaset"));
    if (isFaceDown(code)) b.classList.add("down");
    b.setAttribute("aria-label", (pos ? pos + ": " : "") + describeSetCard(code));
  } else {
    const c = parsePlayingCard(code);
    b.classList.add("playing");
    if (c && c.down) b.classList.add("down");
    if (c && c.matched) { b.classList.add("matched"); b.disabled = true; }
    b.append(playingCardArt(code));
    b.setAttribute("aria-label", pos + ": " + describePlayingCard(code));
  }
  if (pos) b.append(element("span", "pos", pos));
  return b;
}

let exampleCards = new Set();
function renderBoard() {
  const board = $("board");
  board.className = "board " + (isSet() ? "set" : "matchismo");
  // Columns of three as cards lie on a table, in two bands past 24 cards (MegaSet reaches 48): the
  // places set-cli gives them.
  const layout = boardPlaces(room.board.length);
  board.style.gridTemplateRows = isSet() ? "repeat(" + layout.rows + ", auto)" : "";
  board.classList.toggle("big", isSet() && room.board.length > 15);
  board.hidden = room.status === "waiting";
  board.dataset.rev = String(room.rev);
  const picked = new Set(selection.cards.filter((c) => c.pos).map((c) => c.pos));
  const buttons = room.board.map(({ pos, code }, i) => {
    const b = cardButton(pos, code, phone.matches);
    if (isSet()) { b.style.gridRow = String(layout.places[i].row + 1); b.style.gridColumn = String(layout.places[i].column + 1); }
    if (picked.has(pos)) b.classList.add(selection.inFlight ? "claiming" : "sel");
    if (room.fresh.has(pos)) b.classList.add("fresh");
    if (room.hinted === pos) b.classList.add("hint");
    if (exampleCards.has(pos)) b.classList.add("example");
    return b;
  });
  board.replaceChildren(...buttons);
  room.fresh.clear();
}

function renderChain() {
  const show = isSet() && room.chain.length > 0 && room.status !== "waiting";
  $("chain").hidden = !show;
  if (!show) return;
  const picked = new Set(selection.cards.filter((c) => !c.pos).map((c) => c.code));
  const reuse = chainReuse(setMode());
  $("chain-label").textContent = reuse === 1 ? "Chain: reuse one of" : "Chain: reuse " + reuse + " of";
  $("chain-cards").style.gridTemplateColumns = "repeat(" + room.chain.length + ", 80px)";
  $("chain-cards").replaceChildren(...room.chain.map((code, i) => {
    const b = cardButton("", code, false);
    b.dataset.chain = String(i + 1);
    b.append(element("span", "pos", String(i + 1)));
    if (picked.has(code)) b.classList.add("sel");
    return b;
  }));
}

/** Puzzle's sets found on this board (`FOUND`): how many of how many, and the found ones as small cards. */
function renderFound() {
  const found = room.found;
  $("found").hidden = !(isSet() && found && room.status !== "waiting");
  if ($("found").hidden) return;
  $("found-count").textContent = "Found " + found.found + " of " + found.total + " sets on this board";
  $("found-sets").replaceChildren(...found.sets.map((cards) => {
    const item = element("span", "found-set");
    item.append(...cards.map(miniCard));
    return item;
  }));
}

function renderScores() {
  const list = $("scores");
  const items = [];
  for (const [name, p] of room.players) {
    const item = element("li", (p.online ? "online" : "away") + (name === session.me ? " me" : ""));
    item.dataset.player = name;
    item.append(element("span", "dot"));
    const label = element("span", "who", name);
    const tags = [];
    if (name === session.me) tags.push("you");
    if (name === room.host) tags.push("host");
    if (!p.online) tags.push("away");
    if (room.status === "waiting" && room.ready.has(name)) tags.push("ready");
    if (!isSet() && room.turn === name) tags.push("to play");
    if (room.proposal && room.proposal.voters.includes(name)) tags.push("votes for a new game");
    if (tags.length) label.append(" ", element("span", "tag", "(" + tags.join(", ") + ")"));
    item.append(label, element("span", "score", p.score));
    if (name !== session.me && session.me) {
      const actions = button("⋯", "small actions", () => openPlayerMenu(name));
      actions.setAttribute("aria-label", "Actions for " + name);
      actions.dataset.actions = name;
      item.append(actions);
    }
    items.push(item);
  }
  list.replaceChildren(...items);
  $("scores-title").textContent = "Players" + (room.players.size ? " (" + room.players.size + ")" : "");
}

function clockText() {
  // A timed or practice game's clock is the strip's (renderClock): it leaves pauses out.
  if (room.status !== "playing" || !room.started || room.clock) return "";
  return formatClock(Date.now() - room.started);
}

function renderControls() {
  const spectator = room.role === "spectator";
  const waiting = room.status === "waiting";
  let deck = "";
  if (!waiting) {
    if (isSet()) deck = room.deck + (room.deck === 1 ? " card left" : " cards left");
    else if (room.turn) deck = room.turn === session.me ? "Your turn" : room.turn + "'s turn";
    const clock = clockText();
    if (clock) deck += (deck ? " · " : "") + clock;
  }
  $("deck").textContent = deck;
  const practice = isSet() && room.options.practice === "on";
  const clock = playClock(room, Date.now());
  $("btn-pause").hidden = spectator || room.status !== "playing" || !practice;
  $("btn-pause").textContent = clock && clock.paused ? "Resume" : "Pause";
  // Practice gives hints whatever the room's `hints` says (protocol.md).
  $("btn-hint").hidden = spectator || waiting || !isSet() || (room.options.hints === "off" && !practice) || room.status === "over" ||
    (clock !== null && clock.paused);
  $("btn-new").hidden = spectator || waiting;
  $("btn-new").textContent = room.status === "over" || room.players.size <= 1 ? "New game" : "Ask for a new game";
  $("new-mode").hidden = spectator || waiting || !isSet();
  $("new-timing").hidden = $("new-mode").hidden;
  $("new-practice-label").hidden = $("new-mode").hidden;
  // The next game's timing and practice follow the room's too, whenever those change.
  const timing = timingOf(room.options);
  if (isSet() && $("new-timing").dataset.timing !== timing) {
    fillTimings($("new-timing"), timing);
    $("new-timing").dataset.timing = timing;
  }
  const practiceKey = practice ? "on" : "off";
  if (isSet() && $("new-practice").dataset.practice !== practiceKey) {
    $("new-practice").checked = practice;
    $("new-practice").dataset.practice = practiceKey;
  }
  renderClock();
  // The choice follows the room's mode whenever that changes (another room, a new game of another mode).
  if (isSet() && $("new-mode").dataset.mode !== setMode()) {
    $("new-mode").value = setMode();
    $("new-mode").dataset.mode = setMode();
  }
  $("btn-sit").hidden = !spectator;
}

/** The choices of how a game ends, with `selected` chosen (a room made by nc may have one of its own). */
function fillTimings(select, selected) {
  const choices = TIMINGS.slice();
  if (!choices.some((t) => t.key === selected)) {
    const words = describeTiming(selected);
    choices.push({ key: selected, label: words.charAt(0).toUpperCase() + words.slice(1) });
  }
  select.replaceChildren(...choices.map((t) => new Option(t.label, t.key)));
  select.value = selected;
}

/** The clock of a timed or practice game at the strip's end, and a paused game's hidden board. */
function renderClock() {
  const label = room.status === "playing" ? clockLabel(room, Date.now()) : "";
  const clock = playClock(room, Date.now());
  const paused = room.status === "playing" && clock !== null && clock.paused;
  $("clock").hidden = !label;
  $("clock").textContent = label;
  $("clock").classList.toggle("paused", paused);
  $("clock").classList.toggle("low", !paused && clock !== null && clock.leftMs !== null && clock.leftMs <= 30000);
  $("board").classList.toggle("paused", paused);
  $("paused").hidden = !paused;
  $("btn-resume").hidden = room.role !== "player";
  if (paused) {
    $("paused-text").textContent = "Paused at " + formatClock(clock.playMs) + " of play: the clock stands and the cards are hidden." +
      (room.role === "player" ? "" : " A player resumes the game.");
  }
}

/** `PAUSE` or `UNPAUSE` (practice games): the CLOCK event that follows shows it to everyone. */
function setPaused(pausing) {
  clearSelection();
  renderBoard();
  send(pausing ? "PAUSE" : "UNPAUSE", (reply) => { if (!reply.ok) toast(reply.text || reply.line); });
}

function renderWaiting() {
  const waiting = room.status === "waiting";
  $("waiting").hidden = !waiting;
  if (!waiting) return;
  const [ready, seated] = room.readyCount || [room.ready.size, room.players.size];
  const mine = room.ready.has(session.me);
  const host = room.host ? (room.host === session.me ? " or you (the host) start it." : " or " + room.host + " (the host) starts it.") : ".";
  $("waiting-text").textContent = ready + " of " + seated + " ready. The game starts when everyone is ready" + host;
  $("btn-ready").hidden = room.role !== "player" || mine;
  $("btn-unready").hidden = room.role !== "player" || !mine;
  $("btn-start").hidden = !amHost();
}

/** The strip above the board: news for a moment, else the standing vote, else what to do now. */
function renderStrip() {
  const strip = $("strip");
  const agree = $("btn-vote");
  agree.hidden = true;
  if (stripNews) {
    strip.className = "strip " + stripNews.kind;
    $("strip-text").textContent = stripNews.text;
    return;
  }
  const proposal = room.proposal;
  if (proposal && room.status !== "waiting") {
    const voters = proposalVoters(proposal, session.me);
    const what = describeProposal(proposal, room.options);
    const asker = proposal.voters[0] === session.me ? "You asked" : proposal.voters[0] + " asks";
    strip.className = "strip vote";
    $("strip-text").textContent = asker + " for a new game (" + what + "): " + proposal.votes + " of " +
      proposal.needed + " votes — " + voters.names.join(", ") + ".";
    agree.hidden = voters.mine || room.role !== "player";
    return;
  }
  strip.className = "strip";
  let text;
  if (room.role === "spectator") text = "You are watching. Sit down to play.";
  else if (room.status === "waiting") text = "The game starts when everyone is ready.";
  else if (room.status === "over") text = "Game over. New game starts another.";
  else if (!isSet()) text = room.turn === session.me ? "Your turn: tap a card to turn it." : "Take turns turning cards; match ranks or suits.";
  else text = "Find a set: tap " + cardsNeeded() + " cards" + (phone.matches ? "." : ", or type their letters.") +
    " Not sure? How to play shows one.";
  $("strip-text").textContent = text;
}

// ---- room state from lines ----

function resetRoom() {
  const { role, name } = room;
  room = newRoom();
  room.role = role;
  room.name = name;
  room.hinted = null;
  clearSelection();
  stripNews = null;
  closeOverlay("over-dialog");
}

/** Applies a snapshot (the data of JOIN, WATCH, STATE or RESUME). */
function applySnapshot(lines, role) {
  resetRoom();
  room.name = null;  // the snapshot names the room (which may be another one)
  room.role = role;
  for (const line of lines) applyLine(room, line, true);
  renderAll();
}

// The board changed under a selection: keep only the cards still there (by code, reading their
// positions again), and say so. The claim then names the board as it is now, so a card that changed can
// never be claimed by accident, and nothing is charged for it.
function keepSelectionOnBoard() {
  if (!isSet() || selection.cards.length === 0 || selection.inFlight) return;
  const kept = [];
  for (const c of selection.cards) {
    if (!c.pos) { if (room.chain.includes(c.code)) kept.push(c); continue; }
    const now = room.board.find((b) => b.code === c.code);
    if (now) kept.push({ pos: now.pos, code: c.code });
  }
  const lost = selection.cards.length - kept.length;
  selection.cards = kept;
  selection.rev = kept.length ? room.rev : null;
  if (lost > 0) {
    const gone = lost === 1 ? "a card you picked is gone" : lost + " cards you picked are gone";
    banner("The board changed: " + gone + (kept.length ? "; " + kept.length + " still picked." : "."), "bad");
  }
}

function clearSelection() {
  selection.cards = [];
  selection.rev = null;
  selection.inFlight = false;
}

function onEvent(line) {
  const w = wordsOf(line);
  const word = w[0];
  const wasStatus = room.status;
  const wasPaused = room.clock ? !room.clock.running : null;
  const hinted = room.hinted;
  if (["ROOM", "OPTIONS", "BOARD", "DECK", "CHAIN", "FOUND", "CLOCK", "TURN", "HOST", "PLAYER", "STARTED", "PROPOSAL"].includes(word)) {
    if (!applyLine(room, line, false)) return;
    if (word === "BOARD" || word === "CHAIN") keepSelectionOnBoard();
    if (word === "BOARD" && hinted !== null && room.fresh.has(hinted)) room.hinted = null;
    // How to play's example ring names positions: once one of them holds another card, it rings no set.
    if (word === "BOARD" && [...exampleCards].some((p) => room.fresh.has(p))) exampleCards = new Set();
    if (word === "ROOM" && wasStatus === "waiting" && room.status === "playing") closeOverlay("countdown");
    // A pause or its end; the CLOCK that comes with the deal says nothing new.
    if (word === "CLOCK" && !room.clock.running && wasPaused !== true) { log("new", "The game is paused."); clearSelection(); }
    if (word === "CLOCK" && room.clock.running && wasPaused === true) { log("new", "The game goes on."); banner("The game goes on!", "good"); }
    if (word === "PLAYER") { renderScores(); renderStrip(); } else renderAll();
    return;
  }
  applyLine(room, line, false);
  switch (word) {
    case "JOINED": log("join", who(w[1]) + (w[1] === session.me ? " joined" : " joined the room")); renderWaiting(); break;
    case "LEFT": log("join", w[1] + " left"); renderScores(); renderWaiting(); break;
    case "SET": {
      const minis = w.slice(2).map(miniCard);
      const mine = w[1] === session.me;
      log("set" + (mine ? " me-line" : ""), who(w[1]) + " took a set ", ...minis);
      if (!mine) banner(w[1] + " took a set.", "news");
      beep(mine);
      break;
    }
    case "WRONG": {
      const colon = w.indexOf(":");
      const cards = w.slice(3, colon < 0 ? undefined : colon);
      const why = colon < 0 ? "" : w.slice(colon + 1).join(" ");
      log("wrong", who(w[1]) + " claimed ", ...cards.map(miniCard), " — not a set (" + why + ")" +
        (w[2] !== "0" ? ", −" + w[2] : ""));
      break;
    }
    case "CHOSE": log("chose", who(w[1]) + ": " + w.slice(3).join(" ")); break;
    case "CHAT": {
      const item = log("chat", element("span", "who", w[1]), ": " + line.slice(6 + w[1].length));
      if (w[1] !== session.me) noteUnreadChat(item);
      break;
    }
    case "NEWGAME": {
      const standings = room.standings;  // the night's standings outlive the game
      resetRoom(); room.standings = standings; renderAll();
      log("new", who(w[1]) + " started a new game"); banner("New game!", "good"); break;
    }
    case "VOTE": {
      stripNews = null;  // the vote is the news now
      const what = describeProposal({ options: pairsOf(w.slice(4)) }, room.options);
      log("vote", who(w[1]) + " voted for a new game (" + what + "): " + w[2] + " of " + w[3]);
      renderStrip();
      break;
    }
    case "OVER": showOver(); break;
    case "STATS": renderSheet(); break;
    case "DURATION": $("duration").textContent = "Game length " + formatClock(room.duration); break;
    case "STANDINGS": case "STANDING": renderStandings(); break;
    case "REMATCH":
      log("new", who(w[1]) + " wants to play again (" + w[2] + " of " + w[3] + ")");
      renderRematch(); break;
    case "READY":
      log("ready", who(w[1]) + (w[1] === session.me ? " are" : " is") + " ready (" + w[2] + " of " + w[3] + ")");
      renderScores(); renderWaiting(); break;
    case "UNREADY":
      log("ready", who(w[1]) + (w[1] === session.me ? " are" : " is") + " not ready (" + w[2] + " of " + w[3] + ")");
      renderScores(); renderWaiting(); break;
    case "COUNTDOWN":
      if (w[1] === "-") {
        closeOverlay("countdown");
        banner("The countdown stopped: somebody is not ready yet.", "bad");
        renderWaiting();
        break;
      }
      $("btn-start").hidden = true;
      $("countdown-n").textContent = w[1];
      openOverlay("countdown");
      break;
    case "KICKED": {
      const reason = w.length > 3 ? line.split(" ").slice(3).join(" ") : "";
      if (w[1] === session.me) {
        const left = room.name;
        session.room = null; setLink(null); room.name = null; showView("lobby");
        toast(w[2] + " (the host) removed you from " + left + (reason ? ": " + reason : "."));
      } else {
        log("wrong", w[2] + " (the host) removed " + w[1] + (reason ? ": " + reason : ""));
      }
      break;
    }
    case "LOCKED": log("join", w[1] + " locked the room: no newcomers"); renderTitle(); break;
    case "UNLOCKED": log("join", w[1] + " unlocked the room"); renderTitle(); break;
    case "BYE": log("join", "The server says goodbye: " + line.slice(4)); break;
    // A RESUME retired the token it presented: only this one takes the seat back from now on.
    case "TOKEN": if (w[1]) storage.set("token", w[1]); break;
    case "NOTICE": log("wrong", "The server says: " + line.slice(7)); toast(line.slice(7)); break;
    case "ERR": toast(line); break;
    default: break;  // PING needs no answer; unknown lines are ignored (protocol.md)
  }
}

function showOver() {
  clearSelection();
  const list = $("results");
  list.replaceChildren(...(room.over || []).map((r) => {
    const item = element("li", r.name === session.me ? "me" : "");
    item.dataset.player = r.name;
    item.append(element("span", "who", r.name + (r.name === session.me ? " (you)" : "") + " "), element("span", "score", r.score));
    return item;
  }));
  const best = room.over && room.over[0];
  // A timed game says how it ended: time called, or a player reached the target (protocol.md, timed games).
  const clock = playClock(room, Date.now());
  const sets = room.options.sets !== undefined && room.options.sets !== "off" ? room.options.sets : null;
  const why = clock && clock.leftMs !== null && clock.leftMs <= 1000 ? "Time is up. "
    : sets && room.deck > 0 ? describeTiming("sets=" + sets).replace(/^f/, "F") + ". " : "";
  $("over-title").textContent = why + (best ? (best.name === session.me ? "You won!" : best.name + " wins") : "Game over");
  $("duration").textContent = "";
  $("over-replay").hidden = true;
  // The game just ended is the newest of the room's finished games: HISTORY names its record.
  send("HISTORY", (reply) => {
    const id = reply.ok && newestRecordId(reply.data);
    if (id) { $("over-replay").href = replayPath(id); $("over-replay").hidden = false; }
  });
  openOverlay("over-dialog");
  $("btn-again").hidden = room.role !== "player";
  $("btn-rematch").hidden = room.role !== "player";
  $("btn-rematch").disabled = false;
  renderStandings(); renderRematch();
  log("over", "Game over: " + (room.over || []).map((r) => r.name + " " + r.score).join(", "));
  renderAll();
}

/** The night's standings under the results (`STANDING` lines), with the CSV link (public rooms). */
function renderStandings() {
  const rows = room.standings.rows;
  $("night").hidden = rows.length === 0;
  $("night-title").textContent = "Tonight · " + room.standings.games + (room.standings.games === 1 ? " game" : " games");
  $("standings").tBodies[0].replaceChildren(...rows.map((r) => {
    const tr = element("tr", r.name === session.me ? "me" : "");
    for (const cell of [r.place, r.name, r.points, r.wins, r.games, r.sets, formatSeconds(r.best)]) {
      tr.append(element("td", "", String(cell)));
    }
    return tr;
  }));
  const link = $("standings-csv");
  link.hidden = !!session.password || !room.name;  // a private room's are not served over HTTP
  if (room.name) link.href = "/standings.csv?room=" + encodeURIComponent(room.name);
}

/** Who has offered to play again: the Play again button says how many of the players online agree. */
function renderRematch() {
  const status = $("rematch-status");
  status.hidden = !room.rematch;
  if (room.rematch) status.textContent = room.rematch.offers + " of " + room.rematch.needed + " want to play again";
}

/** `REMATCH`: offer to play again with everyone; the game starts when every player online agrees. */
function rematch() {
  $("btn-rematch").disabled = true;
  send("REMATCH", (reply) => {
    if (!reply.ok) { $("btn-rematch").disabled = false; toast(reply.text || reply.line); return; }
    if (reply.words[2] === "offered") toast("Waiting for the others: " + (reply.words[3] || "") + " want to play again.");
  });
}

/** The score sheet under each name of the results: sets, wrong and late claims, fastest and mean. */
function renderSheet() {
  for (const row of room.sheet) {
    const item = Array.from($("results").children).find((li) => li.dataset.player === row.name);
    if (!item || item.querySelector(".stats")) continue;
    const text = row.sets + (isSet() ? " sets" : " matches") + ", " + row.wrong + " wrong" +
      (isSet() ? ", " + row.stale + " late, fastest " + formatSeconds(row.fastest) + ", mean " + formatSeconds(row.mean) : "");
    item.append(element("span", "stats", text));
  }
}

// ---- playing ----

function onCardClick(b) {
  if (room.status === "waiting") return;
  if (room.role !== "player") { toast("You are watching. Sit down to play."); return; }
  if (room.status === "over") { toast("The game is over. Start a new one."); return; }
  // A paused practice game's cards are hidden (a keyboard still reaches them): a claim would be STALE.
  if (room.clock && !room.clock.running) { toast("The game is paused: Resume to go on."); return; }
  const pos = b.dataset.pos, code = b.dataset.card;
  if (!isSet()) { chooseMatchismo(pos); return; }
  if (selection.inFlight) return;
  const index = selection.cards.findIndex((c) => pos ? c.pos === pos : (!c.pos && c.code === code));
  if (index >= 0) {
    selection.cards.splice(index, 1);
    if (selection.cards.length === 0) selection.rev = null;
  } else {
    const reuse = chainReuse(setMode());
    if (b.dataset.chain && selection.cards.filter((c) => !c.pos).length >= reuse) {
      toast(reuse === 1 ? "Reuse exactly one card of the chain." : "Reuse exactly " + reuse + " cards of the chain.");
      return;
    }
    if (selection.cards.length === 0) selection.rev = room.rev;
    selection.cards.push({ pos: pos || null, code });
  }
  if (selection.cards.length === cardsNeeded()) claim();
  renderBoard();
  renderChain();
}

function claim() {
  const names = selection.cards.map((c) => c.pos || c.code);
  selection.inFlight = true;
  const done = () => { clearSelection(); renderBoard(); renderChain(); };
  send("CHOOSE " + names.join(" ") + " @" + selection.rev, (reply) => {
    done();
    if (reply.ok) banner("Set! +1", "good");
    else if (reply.code === "STALE") banner("Too late: the board changed before your claim arrived. No penalty.", "bad");
    else if (reply.code === "NOTSET") banner("Not a set: " + reply.text + (room.options.penalty === "0" ? "" : " (−" + (room.options.penalty || "1") + ")"), "bad");
    else banner(reply.text || reply.line, "bad");
  }, () => { done(); banner("Not connected: your claim was not sent.", "bad"); });
}

function chooseMatchismo(pos) {
  if (room.turn && room.turn !== session.me) { toast("It is " + room.turn + "'s turn."); return; }
  send("CHOOSE " + pos, (reply) => { if (!reply.ok) toast(reply.text || reply.line); });
}

let hintTimer = null;
function askHint() {
  send("HINT", (reply) => {
    if (!reply.ok) { toast(reply.text || reply.line); return; }
    const entry = (wordsOf(reply.data[0] || "")[1] || "");
    room.hinted = entry.slice(0, entry.indexOf(":"));
    renderBoard();
    clearTimeout(hintTimer);
    hintTimer = setTimeout(() => { room.hinted = null; renderBoard(); }, HINT_SHOW_MS);
  });
}

/** `NEW`: a new game now, or a vote; while a proposal stands a bare `NEW` agrees with it (protocol.md). */
function newGame() {
  // The mode chosen beside the button, when it is not the room's: `NEW mode=…` (protocol.md).
  // The mode, timing and practice chosen beside the button, where they are not the room's:
  // `NEW mode=… sets=… minutes=… practice=…` (protocol.md); a bare NEW agrees with a standing proposal.
  const changes = isSet() && !$("new-mode").hidden
    ? newGameOptions(room.options, { mode: $("new-mode").value, timing: $("new-timing").value, practice: $("new-practice").checked })
    : [];
  send(["NEW"].concat(changes).join(" "), (reply) => {
    if (!reply.ok) { toast(reply.text || reply.line); return; }
    if (reply.words[2] === "voted") toast("Your vote is in: " + (reply.words[3] || "") + ".");
  });
}

// On a laptop the letters in the cards' corners pick them, as typing them does in set-cli; the chain's
// cards are 1–3, Escape drops the selection.
let pendingZ = false;
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || anyOverlayOpen()) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if ($("table").hidden) return;
  if (event.key === "Escape") { pendingZ = false; clearSelection(); renderBoard(); renderChain(); return; }
  if (!/^[a-z1-4]$/i.test(event.key)) return;
  let key = event.key.toLowerCase();
  // Past z (MegaSet's board reaches 48) positions are za…zv: a z waits for the next letter, and stands
  // for itself when z and that letter name no card.
  if (pendingZ) {
    pendingZ = false;
    if (document.querySelector(`#board [data-pos='z${key}']`)) key = "z" + key;
    else { const z = document.querySelector("#board [data-pos='z']"); if (z && !z.disabled) onCardClick(z); }
  } else if (key === "z" && room.board.length > 26) {
    pendingZ = true; event.preventDefault(); return;
  }
  const b = /^[1-4]$/.test(key)
    ? document.querySelector(`#chain-cards [data-chain='${key}']`)
    : document.querySelector(`#board [data-pos='${key}']`);
  if (!b || b.disabled) return;
  event.preventDefault();
  onCardClick(b);
}

// ---- sound ----

let audio = null;
/** A short beep when a set is taken (higher for your own), if the player turned sound on. */
function beep(high) {
  if (storage.get("sound") !== "1") return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const at = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = high ? 880 : 587;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.2);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.22);
    document.body.dataset.beeps = String((parseInt(document.body.dataset.beeps, 10) || 0) + 1);
  } catch (e) { /* no WebAudio here: silence */ }
}

// ---- the host's tools, the room menu, the player menus ----

let confirmAction = null;
/** Asks before something that cannot be undone with one tap; `onOK(text)` gets the input's text. */
function confirmDialog({ title, text, label, ok, cancel }, onOK) {
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-label").hidden = !label;
  $("confirm-label-text").textContent = label || "";
  $("confirm-input").value = "";
  $("confirm-ok").textContent = ok;
  $("confirm-cancel").textContent = cancel;
  confirmAction = onOK;
  openOverlay("confirm-dialog");
  if (label) $("confirm-input").focus(); else $("confirm-cancel").focus();
}

function openMenu() {
  const host = amHost();
  $("menu-title").textContent = room.name ? "Room " + room.name : "Room";
  $("menu-host").hidden = !host;
  $("menu-start").hidden = !(host && room.status === "waiting");
  $("menu-lock").hidden = !host || room.locked;
  $("menu-unlock").hidden = !host || !room.locked;
  $("menu-unready").hidden = !(room.status === "waiting" && room.ready.has(session.me));
  $("menu-stats").hidden = !session.me;
  $("menu-leave").textContent = room.role === "spectator" ? "Stop watching…" : "Leave the room…";
  $("menu-letters").checked = document.body.classList.contains("letters");
  $("menu-sound").checked = storage.get("sound") === "1";
  openOverlay("menu-dialog");
}

let playerMenuName = null;
function openPlayerMenu(name) {
  playerMenuName = name;
  $("player-menu-title").textContent = name;
  $("player-kick").hidden = !amHost();
  $("player-kick").textContent = "Remove " + name + " from the room…";
  openOverlay("player-menu");
}

function kick(name) {
  confirmDialog({
    title: "Remove " + name + " from " + room.name + "?",
    text: name + " loses the seat and cannot come back into this room while it lasts. Everyone sees the reason.",
    label: "Reason (optional)", ok: "Remove " + name, cancel: "Keep " + name,
  }, (reason) => {
    const clean = reason.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
    send("KICK " + name + (clean ? " " + clean : ""), (reply) => {
      toast(reply.ok ? name + " is out of the room." : reply.text);
    });
  });
}

function setLocked(locked) {
  send(locked ? "LOCK" : "UNLOCK", (reply) => {
    if (!reply.ok) { toast(reply.text); return; }
    room.locked = locked;
    renderTitle();
    toast(locked ? "Locked: nobody new can join. Spectators still can." : "Unlocked: anyone can join.");
  });
}

function startNow() { send("START", (reply) => { if (!reply.ok) toast(reply.text); }); }

function sayReady(ready) {
  send(ready ? "READY" : "UNREADY", (reply) => {
    if (!reply.ok) { toast(reply.text); return; }
    if (ready) room.ready.add(session.me); else room.ready.delete(session.me);
    room.readyCount = [parseInt(reply.words[2], 10) || 0, parseInt(reply.words[3], 10) || 0];
    renderWaiting(); renderScores();
  });
}

function leave() {
  const watching = room.role === "spectator";
  confirmDialog({
    title: (watching ? "Stop watching " : "Leave ") + room.name + "?",
    text: watching ? "You go back to the list of rooms." :
      "You give up your seat. Your score stays with this game if you come back before it ends.",
    ok: watching ? "Stop watching" : "Leave", cancel: watching ? "Keep watching" : "Stay",
  }, () => {
    send("LEAVE", () => {});
    session.room = null; session.watching = false; room.name = null;
    setLink(null);
    showView("lobby");
  });
}

// ---- lists: stats, best players, history ----

function showInfo(title, nodes) {
  $("info-title").textContent = title;
  $("info-body").replaceChildren(...nodes);
  openOverlay("info-dialog");
}

function table(headings, rows) {
  const t = element("table");
  const head = element("tr");
  for (const h of headings) head.append(element("th", "", h));
  t.append(head);
  for (const row of rows) {
    const tr = element("tr");
    for (const cell of row) tr.append(element("td", "", cell));
    t.append(tr);
  }
  return t;
}

function showStats(name) {
  send("STATS" + (name ? " " + name : ""), (reply) => {
    if (!reply.ok) { toast(reply.text); return; }
    const rows = reply.data.map((line) => {
      const w = wordsOf(line);
      const f = pairsOf(w.slice(3));
      return [w[2], f.rating, f.games, f.wins, f.sets, f.wrong, f.stale];
    });
    const who = name || session.me;
    showInfo("Stats of " + who, rows.length ? [table(["Mode", "Rating", "Games", "Wins", "Sets", "Wrong", "Late"], rows)]
      : [element("p", "", who + " has not finished a game yet.")]);
  });
}

function showTop() {
  const mode = isSet() ? (room.options.mode || "normal") : "matchismo";
  send("TOP " + mode, (reply) => {
    if (!reply.ok) { toast(reply.text); return; }
    const rows = reply.data.map((line) => { const w = wordsOf(line); return [w[1] + ". " + w[2], w[3], w[4]]; });
    showInfo("Best players — " + mode, rows.length ? [table(["Player", "Rating", "Games"], rows)]
      : [element("p", "", "Nobody has finished a " + mode + " game yet.")]);
  });
}

function showHistory() {
  send("HISTORY", (reply) => {
    if (!reply.ok) { toast(reply.text); return; }
    const nodes = [];
    const entry = (w) => {
      const item = element("p", "", formatClock((parseInt(w[0], 10) || 0) * 1000) + "  " + w[1] + " ");
      const rest = w.slice(2);
      if (rest.every((c) => parseSetCard(c))) item.append(...rest.map(miniCard)); else item.append(rest.join(" "));
      return item;
    };
    let current = 0;
    for (const line of reply.data) {
      const w = wordsOf(line).slice(1);
      if (w[0] !== "GAME") { nodes.push(entry(w)); current++; continue; }
      const rest = w.slice(2);
      if (/^\d{4}-/.test(rest[0] || "")) {
        nodes.push(element("h2", "", "Game of " + rest[0].slice(0, 16).replace("T", " ") + " · " +
          rest.slice(2).map((s) => s.replace(":", " ")).join(", ")));
      } else if (rest[0] === "ID" && /^[0-9a-f]{16}$/.test(rest[1] || "")) {
        // The game's replay viewer (replaymodel.js), which reads its record (RECORD <id>).
        const link = element("a", "", "Watch the replay");
        link.href = replayPath(rest[1]);
        const p = element("p", "hint-text");
        p.append(link);
        nodes.push(p);
      } else if (rest[0] !== "STATS" && rest[0] !== "DURATION") {
        nodes.push(entry(rest));
      }
    }
    if (current === 0) nodes.unshift(element("p", "hint-text", "Nothing taken yet this game."));
    showInfo("History of " + room.name, nodes);
  });
}

function watchLink() {
  const url = location.origin + "/?room=" + encodeURIComponent(room.name) + "&watch=1";
  const input = element("input");
  input.readOnly = true;
  input.value = url;
  input.id = "watch-link";
  showInfo("Watch " + room.name, [element("p", "", "Send this link to anyone who wants to watch: they need no name."), input]);
  input.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(() => toast("Link copied."), () => {});
}

/** Invite: the room's QR code and the address to read aloud (invite.js), and the TV table's link. */
function openInvite() {
  if (!room.name) return;
  $("invite-qr").src = qrPath(room.name);
  $("invite-qr").title = joinLink(location.origin, room.name);
  $("invite-address").textContent = spokenAddress(location.origin);
  $("invite-room").textContent = "room " + room.name;
  $("invite-loopback").hidden = !isLoopbackHost(location.hostname);
  $("invite-tv").href = tvLink(location.origin, room.name);
  openOverlay("invite-dialog");
}

// ---- how to play, and the tips of a first visit ----

function rulesParagraph(text) { return element("p", "", text); }

function showRules() {
  const body = [];
  if (room.name && !isSet()) {
    const n = room.options.n || "2";
    body.push(rulesParagraph("Matchismo: take turns turning cards face up, " + n + " at a time. Cards of the same rank or the same suit make a match and score; a mismatch costs points and the cards turn back. A match keeps your turn."));
    body.push(rulesParagraph("Tap a face-down card to turn it" + (phone.matches ? "." : ", or type its letter.")));
  } else {
    const mode = setMode();
    const many = { 3: "three", 4: "four", 6: "six" }[cardsPerClaim(mode)];
    body.push(rulesParagraph("Find a set: " + many +
      " cards where each of the four features — number, colour, fill and shape" + (mode === "megaset" ? ", and the border" : "") +
      " — is either all the same or all different on the cards."));
    const example = exampleSet(room.board, mode);
    const cards = element("div", "example");
    cards.append(...example.cards.map(miniCard));
    body.push(rulesParagraph(example.fromBoard ? "For example, these cards on your board (" + example.positions.join(", ") + ") are a set:" : "For example, these three cards are a set:"), cards);
    const list = element("ul");
    for (const a of explainSet(example.cards).attributes) {
      const item = element("li", "", a.name[0].toUpperCase() + a.name.slice(1) + ": " + a.values.join(", ") + " — ");
      item.append(element("span", "ok", a.verdict + " ✓"));
      list.append(item);
    }
    body.push(list);
    body.push(rulesParagraph("If two cards share a feature and the third does not — two red and one green — it is not a set."));
    if (room.options.mode === "junior") body.push(rulesParagraph("Junior: every card is solid, so only number, colour and shape count."));
    if (room.options.mode === "chain") body.push(rulesParagraph("Chain: after the first set, each set must reuse exactly one card of the last one; those cards are shown under the board."));
    if (mode === "ultra" || mode === "ultra9") body.push(rulesParagraph("Ultra: four cards that split into two pairs, where both pairs need the same third card to make a set."));
    const later = {
      ultrachain: "Ultra chain: an ultra (four cards, two pairs that need the same third card); after the first, each must reuse exactly two cards of the last one.",
      megaset: "MegaSet: a fifth feature, the border — single, double or dotted — which must also be all the same or all different.",
      ghostset: "GhostSet: six cards that split into three pairs; the card missing from each pair (it need not be on the board) must make a set with the other two missing cards.",
      "4set": "4Set: four values of each feature (4 shapes, blue, dotted, the cross ✚); four cards where each feature is all the same, all different, or two pairs.",
      "4setjr": "4Set junior: every card is solid; four cards where each feature is all the same, all different, or two pairs.",
      puzzle: "Puzzle: the board stays until every set on it was found; each set scores once.",
      shuffle: "Shuffle: after each set the cards change places.",
      memory: "Memory: the cards lie face down. Tap three: if they are a set you take them, if not everyone sees them before they turn back.",
    };
    if (later[mode]) body.push(rulesParagraph(later[mode]));
    body.push(rulesParagraph("Tap the cards to claim a set" + (phone.matches ? "." : " — on a laptop you can also type the letters in their corners.") +
      " A set scores 1; a wrong claim costs " + (room.options.penalty === "0" ? "nothing" : "1") +
      "; a claim that comes after someone took those cards costs nothing. Hint shows one card of a set."));
    // Timed and practice games (protocol.md): how this room's games end, and what practice allows.
    const target = timingOf(room.options);
    const sets = (target.match(/sets=(\d+)/) || [])[1];
    const minutes = (target.match(/minutes=(\d+)/) || [])[1];
    const ends = [];
    if (sets) ends.push("as soon as a player has " + sets + (sets === "1" ? " set" : " sets"));
    if (minutes) ends.push("after " + minutes + (minutes === "1" ? " minute" : " minutes") + " of play (pauses left out)");
    body.push(rulesParagraph((ends.length
      ? "This game ends " + ends.join(" or ") + ", or when the deck is empty and no set is left; the best score wins."
      : "The game ends when the deck is empty and no set is left.") +
      " Colour letters (in the menu) write R, G, P or B on each card."));
    if (room.options.practice === "on") {
      body.push(rulesParagraph("Practice: the game is unrated, Hint is always there, and Pause stops the game and its clock for everyone."));
    }
    if (example.fromBoard) {
      exampleCards = new Set(example.positions);
      renderBoard();
      setTimeout(() => { exampleCards = new Set(); renderBoard(); }, HINT_SHOW_MS);
    }
  }
  $("rules-body").replaceChildren(...body);
  openOverlay("rules-dialog");
}

function showTipsOnce() {
  if (!phone.matches || storage.get("tips") === "1") return;
  openOverlay("tips-dialog");
}

// ---- the chat badge: news below the fold on a phone ----

// On a phone the chat is below the board, out of sight while playing: a message that arrives where it
// cannot be seen is counted on a badge, which scrolls down to it; seeing the chat box clears it.
let unread = 0;
function isOnScreen(e) {
  const r = e.getBoundingClientRect();
  return r.height > 0 && r.bottom > 0 && r.top < window.innerHeight;
}
function noteUnreadChat(item) {
  if (isOnScreen(item)) return;
  unread += 1;
  const badge = $("chat-badge");
  badge.textContent = unread + (unread === 1 ? " new message ↓" : " new messages ↓");
  badge.hidden = false;
}
function readChat() {
  unread = 0;
  $("chat-badge").hidden = true;
}
window.addEventListener("scroll", () => { if (unread && isOnScreen($("chat-form"))) readChat(); }, { passive: true });

// ---- the session ----

function setLink(name) {
  const url = new URL(location.href);
  if (name) url.searchParams.set("room", name); else url.searchParams.delete("room");
  url.searchParams.delete("name");
  if (name && session.watching) url.searchParams.set("watch", "1"); else url.searchParams.delete("watch");
  history.replaceState(null, "", url.pathname + url.search);
}

function onGreeting() {
  session.manual = null;
  closeOverlay("reconnect");
  const token = storage.get("token");
  if (token) {
    send("RESUME " + token, (reply) => {
      if (reply.ok) {
        session.me = reply.words[2];
        const seat = reply.words.length >= 5 ? reply.words[3] : null;
        if (seat) applySnapshot(reply.data, "player");
        enterRoom(seat);
      } else {
        storage.set("token", null);
        begin();
      }
    });
  } else {
    begin();
  }
}

/** No seat to resume: a name (remembered, or asked for) — or, for a spectator link, no name at all. */
function begin() {
  const name = storage.get("name");
  if (name && isName(name)) hello(name);
  else if (session.watching && session.room) watch(session.room);
  else askName("");
}

function hello(name) {
  send("HELLO " + name, (reply) => {
    if (reply.ok) {
      session.me = reply.words[2];
      storage.set("token", reply.words[3] || null);
      closeOverlay("name-dialog");
      enterRoom(null);
    } else if (reply.code === "ALREADY") {
      enterRoom(null);
    } else {
      askName(reply.code === "TAKEN" ? "Somebody here already has the name " + name + ". Pick another." : reply.text);
    }
  });
}

function askName(message) {
  $("name-error").textContent = message;
  $("name-input").value = storage.get("name") || "";
  $("btn-name-cancel").hidden = !session.watching;
  openOverlay("name-dialog");
  $("name-input").focus();
}

/** After HELLO or RESUME: the room of the link (to watch or play), the resumed seat, or the lobby. */
function enterRoom(seat) {
  if (session.room && session.watching) watch(session.room);
  else if (session.room && session.room !== seat) join(session.room);
  else if (seat) { session.room = seat; setLink(seat); showView("table"); }
  else showView("lobby");
}

function join(name) {
  const extra = session.roomExtra + (session.password ? " password=" + session.password : "") +
    (session.startOption ? " start=ready" : "");
  send("JOIN " + name + extra, (reply) => {
    if (reply.ok) {
      session.room = name; session.watching = false; session.roomExtra = "";
      applySnapshot(reply.data, "player");
      setLink(name);
      showView("table");
      log("join", "You joined " + name + ".");
    } else if (reply.code === "BADOPTION" && session.startOption) {
      session.startOption = false;  // a setd without ready rooms: join as before
      join(name);
    } else {
      lobbyAfterRefusal(name, reply, "join");
    }
  });
}

function watch(name) {
  send("WATCH " + name + (session.password ? " password=" + session.password : ""), (reply) => {
    if (reply.ok) {
      session.room = name; session.watching = true;
      applySnapshot(reply.data, "spectator");
      setLink(name);
      showView("table");
      log("join", "You are watching " + name + ".");
    } else {
      lobbyAfterRefusal(name, reply, "watch");
    }
  });
}

/** A room that said no: back to the lobby, with the room's name ready and the password box if private. */
function lobbyAfterRefusal(name, reply, what) {
  session.room = null; session.watching = false; session.roomExtra = "";
  setLink(null);
  showView("lobby");
  $("room-input").value = name;
  if (reply.code === "NOSUCHROOM") {
    // A private room answers as no room at all to anyone without its password.
    toast("No room " + name + " to " + what + " (a private one needs its password).");
    $("password-input").focus();
  } else {
    toast("Cannot " + what + " " + name + ": " + reply.text);
  }
  session.password = null;
}

function refreshRooms() {
  send("ROOMS", (reply) => {
    if (!reply.ok) return;
    const items = reply.data.map((line) => {
      const w = wordsOf(line);
      const item = element("li");
      item.append(element("span", "name", w[1]), element("span", "meta", (w[2] === "matchismo" ? "Matchismo" : "SET") +
        " · " + w[3] + (w[3] === "1" ? " player" : " players") + " · " + w[4]));
      item.append(button("Join", "small", () => { session.roomExtra = ""; session.password = null; join(w[1]); }),
        button("Watch", "small", () => { session.password = null; watch(w[1]); }));
      return item;
    });
    if (items.length === 0) items.push(element("li", "meta", "No public rooms yet: make one above."));
    $("room-list").replaceChildren(...items);
  });
}

function setStatus(state, delay) {
  const status = $("status");
  status.classList.toggle("offline", state !== "online");
  status.classList.toggle("ok", state === "online");
  status.textContent = state === "online" ? "online" : state === "connecting" ? "connecting…" :
    "offline, retrying in " + Math.ceil(delay / 1000) + " s";
}

// The server closed, or the network went: reconnect by ourselves, except when the server said why it is
// pointless (our seat was taken up in another tab, or we were idle or flooding).
function onClosed(bye) {
  setStatus("offline", RECONNECT_MIN_MS);
  clearSelection();
  if (bye && /^(resumed elsewhere|idle|flood)/.test(bye)) {
    session.manual = bye;
    $("reconnect-text").textContent = bye.startsWith("resumed") ?
      "You opened this seat in another window or tab." : "The server closed the connection (" + bye + ").";
    openOverlay("reconnect");
    $("status").textContent = "offline";
    return;
  }
  scheduleReconnect();
}

// A phone that slept may hold a connection that is long dead: check it when the page shows again.
function checkAlive() {
  if (session.manual) return;
  if (!isOpen()) { reconnectNow(); return; }
  let answered = false;
  send("PING", () => { answered = true; });
  setTimeout(() => { if (!answered) dropConnection(); }, WAKE_CHECK_MS);
}

// ---- wiring ----

connection.onGreeting = () => { setStatus("online"); onGreeting(); };
connection.onEvent = onEvent;
connection.onState = setStatus;
connection.onClosed = onClosed;

$("board").addEventListener("click", (event) => {
  const b = event.target.closest(".card");
  if (b && !b.disabled) onCardClick(b);
});
$("chain-cards").addEventListener("click", (event) => {
  const b = event.target.closest(".card");
  if (b) onCardClick(b);
});
document.addEventListener("keydown", onKey);
$("btn-hint").addEventListener("click", askHint);
$("btn-new").addEventListener("click", newGame);
$("btn-pause").addEventListener("click", () => setPaused($("btn-pause").textContent === "Pause"));
$("btn-resume").addEventListener("click", () => setPaused(false));
$("btn-again").addEventListener("click", () => { closeOverlay("over-dialog"); newGame(); });
$("btn-rematch").addEventListener("click", rematch);
$("btn-close-over").addEventListener("click", () => closeOverlay("over-dialog"));
$("btn-vote").addEventListener("click", newGame);
$("btn-sit").addEventListener("click", () => {
  session.watching = false;
  if (session.me) { if (room.name) join(room.name); } else askName("Your name, to sit down and play.");
});
$("btn-ready").addEventListener("click", () => sayReady(true));
$("btn-unready").addEventListener("click", () => sayReady(false));
$("btn-start").addEventListener("click", startNow);
$("btn-refresh").addEventListener("click", refreshRooms);
$("btn-reconnect").addEventListener("click", () => { session.manual = null; closeOverlay("reconnect"); reconnectNow(); });
$("btn-rules").addEventListener("click", showRules);
$("rules-close").addEventListener("click", () => closeOverlay("rules-dialog"));
$("tips-rules").addEventListener("click", () => { storage.set("tips", "1"); closeOverlay("tips-dialog"); showRules(); });
$("tips-close").addEventListener("click", () => { storage.set("tips", "1"); closeOverlay("tips-dialog"); });
$("btn-menu").addEventListener("click", openMenu);
$("btn-invite").addEventListener("click", openInvite);
$("invite-close").addEventListener("click", () => closeOverlay("invite-dialog"));
$("menu-close").addEventListener("click", () => closeOverlay("menu-dialog"));
$("menu-start").addEventListener("click", () => { closeOverlay("menu-dialog"); startNow(); });
$("menu-lock").addEventListener("click", () => { closeOverlay("menu-dialog"); setLocked(true); });
$("menu-unlock").addEventListener("click", () => { closeOverlay("menu-dialog"); setLocked(false); });
$("menu-unready").addEventListener("click", () => { closeOverlay("menu-dialog"); sayReady(false); });
$("menu-history").addEventListener("click", () => { closeOverlay("menu-dialog"); showHistory(); });
$("menu-stats").addEventListener("click", () => { closeOverlay("menu-dialog"); showStats(null); });
$("menu-top").addEventListener("click", () => { closeOverlay("menu-dialog"); showTop(); });
$("menu-watch-link").addEventListener("click", () => { closeOverlay("menu-dialog"); watchLink(); });
$("menu-leave").addEventListener("click", () => { closeOverlay("menu-dialog"); leave(); });
$("menu-letters").addEventListener("change", (event) => {
  document.body.classList.toggle("letters", event.target.checked);
  storage.set("letters", event.target.checked ? "1" : "0");
});
$("menu-sound").addEventListener("change", (event) => {
  storage.set("sound", event.target.checked ? "1" : "0");
  if (event.target.checked) beep(true);  // a tap is what lets a page make a sound: say what it sounds like
});
$("player-menu-close").addEventListener("click", () => closeOverlay("player-menu"));
$("player-stats").addEventListener("click", () => { closeOverlay("player-menu"); showStats(playerMenuName); });
$("player-kick").addEventListener("click", () => { closeOverlay("player-menu"); kick(playerMenuName); });
$("confirm-form").addEventListener("submit", (event) => {
  event.preventDefault();
  closeOverlay("confirm-dialog");
  const action = confirmAction;
  confirmAction = null;
  if (action) action($("confirm-input").value);
});
$("confirm-cancel").addEventListener("click", () => { confirmAction = null; closeOverlay("confirm-dialog"); });
$("info-close").addEventListener("click", () => closeOverlay("info-dialog"));
$("chat-badge").addEventListener("click", () => { $("events").scrollIntoView({ block: "end" }); readChat(); });
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-input").value.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  if (!text) return;
  if (!session.me) { askName("Your name, to chat."); return; }
  send("CHAT " + text, (reply) => { if (reply.ok) $("chat-input").value = ""; else toast(reply.text); });
});
$("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name-input").value.trim();
  if (!isName(name)) { $("name-error").textContent = "1–16 letters, digits, _ or -."; return; }
  storage.set("name", name);
  storage.set("token", null);
  closeOverlay("name-dialog");
  if (isOpen() && connection.greeted && !session.me) hello(name); else reconnectNow();
});
$("btn-name-cancel").addEventListener("click", () => closeOverlay("name-dialog"));
function lobbyChoice(watching) {
  const name = $("room-input").value.trim();
  if (!isName(name)) { toast("A room name is 1–16 letters, digits, _ or -."); return; }
  const game = $("game-select").value;
  const password = $("password-input").value.trim();
  if (/\s/.test(password)) { toast("A password has no spaces."); return; }
  session.password = password || null;
  session.roomExtra = game === "matchismo" ? " matchismo" : game === "normal" ? "" : " mode=" + game;
  // How it ends and practice are SET's room options (protocol.md, JOIN): `sets=N`, `minutes=M`, `practice=on`.
  if (game !== "matchismo") {
    const timing = $("timing-select").value;
    session.roomExtra += (timing ? " " + timing : "") + ($("practice-input").checked ? " practice=on" : "");
  }
  if (watching) watch(name); else join(name);
}
$("join-form").addEventListener("submit", (event) => { event.preventDefault(); lobbyChoice(false); });
$("btn-watch").addEventListener("click", () => lobbyChoice(true));
phone.addEventListener("change", () => { renderBoard(); renderStrip(); });
setInterval(() => { if (!$("table").hidden && room.started) renderControls(); }, 1000);

document.body.classList.toggle("letters", storage.get("letters") === "1");
for (const o of $("game-select").options) if (o.value !== "matchismo") $("new-mode").append(new Option(o.textContent, o.value));
fillTimings($("timing-select"), "");
// Matchismo has no timing or practice: the lobby offers them only for SET's modes.
$("game-select").addEventListener("change", () => {
  const matchismo = $("game-select").value === "matchismo";
  $("timing-select").disabled = matchismo;
  $("practice-input").disabled = matchismo;
});
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") checkAlive(); });
window.addEventListener("online", checkAlive);
window.addEventListener("pageshow", (event) => { if (event.persisted) checkAlive(); });

if (params.get("room") !== null && session.room === null) toast("That room name is not valid.");
connect();
