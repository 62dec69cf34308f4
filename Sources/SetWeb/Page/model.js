// The page's pure parts: no document, no socket, no clock. The page runs them inside its one script;
// `node --test Tests/Page` loads this file on its own (the `module.exports` at the end) and tests them.
//
// - words and reply pairing (protocol.md, "Telling data from events"), from the table in replies.json;
// - the view of the room, built from snapshot lines and events;
// - the rules of a set, for the example of "How to play";
// - times, rounded as set-cli rounds them.

// ---- words ----

/** The first word of a line (up to the first space). */
function firstWord(line) {
  const i = line.indexOf(" ");
  return i < 0 ? line : line.slice(0, i);
}

/** Splits a line into words on runs of spaces and tabs, as the server does. */
function wordsOf(line) { return line.split(/[ \t]+/).filter((w) => w.length > 0); }

/** A name as the protocol allows it: 1–16 of A–Z a–z 0–9 _ -, and not "-" alone. */
function isName(text) { return /^[A-Za-z0-9_-]{1,16}$/.test(text) && text !== "-"; }

// ---- reply pairing ----

/**
 * Pairs replies with the commands sent, by the table of reply shapes (replies.json). `sent(verb, tag)`
 * when a command leaves; `receive(line)` for every line but the greeting returns what the line was, in
 * order: `{ event: line }`, `{ reply, tag }` (the command's final line with its data lines), or
 * `{ unexpected: line }` (a final line with no command pending, as `ERR - FULL` before any command).
 * A reply is `{ ok, verb, line, words, code, text, data }`.
 */
function makeReplyTracker(shapes) {
  const dataWords = {};
  for (const verb of Object.keys(shapes.replies)) {
    const shape = shapes.replies[verb];
    dataWords[verb] = { words: shape.words, data: shape.data === "snapshot" ? shapes.snapshot : shape.data };
  }
  const eventsOnly = new Set(shapes.eventsOnly);
  const tracker = { pending: [], held: [] };

  tracker.sent = (verb, tag) => { tracker.pending.push({ verb: verb.toUpperCase(), tag }); };

  /** Forgets every pending command (the connection is gone); returns them, oldest first. */
  tracker.dropAll = () => {
    const dropped = tracker.pending;
    tracker.pending = [];
    tracker.held = [];
    return dropped;
  };

  const release = (out) => {
    for (const line of tracker.held) out.push({ event: line });
    tracker.held = [];
  };

  tracker.receive = (line) => {
    const out = [];
    const word = firstWord(line);
    if (word === "OK" || word === "ERR") {
      const words = wordsOf(line);
      const request = tracker.pending.shift();
      if (!request) { release(out); out.push({ unexpected: line }); return out; }
      const shape = dataWords[request.verb];
      let count = 0;
      if (shape && words[0] === "OK" && words.length >= shape.words) {
        count = Math.min(tracker.held.length, Math.max(0, parseInt(words[words.length - 1], 10) || 0));
      }
      const data = tracker.held.splice(tracker.held.length - count, count);
      release(out);
      out.push({
        reply: {
          ok: words[0] === "OK", verb: words[1] || "", line, words, data,
          code: words[0] === "ERR" ? words[2] || "" : "",
          text: words[0] === "ERR" ? words.slice(3).join(" ") : words.slice(2).join(" "),
        },
        tag: request.tag,
      });
      return out;
    }
    const oldest = tracker.pending[0];
    const shape = oldest && dataWords[oldest.verb];
    // Possibly this reply's data: held until the final line says how many lines are data. A word this
    // page does not know may be a newer server's data line, so it is held too.
    if (shape && (shape.data.includes(word) || !eventsOnly.has(word))) {
      tracker.held.push(line);
      return out;
    }
    // Data lines are never split by an event: whatever was held was an event too.
    release(out);
    out.push({ event: line });
    return out;
  };
  return tracker;
}

// ---- the view of the room ----

/** A room nobody has described yet. */
function newRoom() {
  return {
    name: null, game: "set", status: "playing", options: {}, rev: 0, board: [], deck: 0, chain: [], found: null,
    turn: null, host: null, players: new Map(), ready: new Set(), readyCount: null, countdown: null,
    started: null, proposal: null, locked: false, over: null, sheet: [], duration: null, fresh: new Set(),
    standings: { games: 0, rows: [] }, rematch: null, clock: null,
  };
}

/** `PROPOSAL …` as `{ votes, needed, voters, options }`, or null for `PROPOSAL -` (or a broken line). */
function parseProposal(words) {
  if (words[1] === "-" || words.length < 4) return null;
  const options = {};
  for (const pair of words.slice(4)) {
    const i = pair.indexOf("=");
    if (i > 0) options[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return { votes: parseInt(words[1], 10) || 0, needed: parseInt(words[2], 10) || 0,
    voters: words[3].split(","), options };
}

/** `name=value` words as an object. */
function pairsOf(words) {
  const pairs = {};
  for (const pair of words) { const i = pair.indexOf("="); if (i > 0) pairs[pair.slice(0, i)] = pair.slice(i + 1); }
  return pairs;
}

/**
 * Applies one line (a snapshot line, or an event) to `room`; returns whether it changed the room. A
 * `BOARD` after another marks the positions whose card changed in `room.fresh`. Lines about other
 * rooms (a `ROOM` line of a listing) change nothing.
 */
function applyLine(room, line, inSnapshot) {
  const w = wordsOf(line);
  switch (w[0]) {
    case "ROOM":
      if (room.name !== null && w[1] !== room.name) return false;
      room.name = w[1]; room.game = w[2]; room.status = w[4] || "playing";
      if (room.status !== "waiting") { room.ready.clear(); room.readyCount = null; room.countdown = null; }
      if (room.status !== "over") room.over = null;
      return true;
    case "OPTIONS": room.options = pairsOf(w.slice(1)); return true;
    case "BOARD": {
      const old = new Map(room.board.map((c) => [c.pos, c.code]));
      room.rev = parseInt(w[1], 10) || 0;
      room.board = w.slice(2).map((entry) => {
        const i = entry.lastIndexOf(":");
        return { pos: entry.slice(0, i), code: entry.slice(i + 1) };
      });
      room.fresh = new Set();
      if (!inSnapshot && old.size > 0) for (const c of room.board) if (old.get(c.pos) !== c.code) room.fresh.add(c.pos);
      return true;
    }
    case "DECK": room.deck = parseInt(w[1], 10) || 0; return true;
    case "CHAIN": room.chain = w[1] === "-" ? [] : w.slice(1); return true;
    case "FOUND":  // puzzle: `FOUND <found> <total> <card>,<card>,<card> ...`
      room.found = { found: parseInt(w[1], 10) || 0, total: parseInt(w[2], 10) || 0,
        sets: w.slice(3).map((set) => set.split(",")) };
      return true;
    case "TURN": room.turn = w[1] === "-" ? null : w[1]; return true;
    // A timed or practice game's play clock (protocol.md, "Snapshot lines"): read with `playClock`.
    case "CLOCK":
      if (w.length < 3) return false;
      room.clock = { ms: parseInt(w[1], 10) || 0, running: w[2] !== "paused" };
      return true;
    case "HOST": room.host = w[1]; return true;
    case "PLAYER":
      room.players.set(w[1], { score: parseInt(w[2], 10) || 0, online: w[3] !== "away" });
      return true;
    case "STARTED": room.started = parseInt(w[1], 10) || null; return true;
    case "PROPOSAL": room.proposal = parseProposal(w); return true;
    case "LEFT": room.players.delete(w[1]); room.ready.delete(w[1]); return true;
    case "READY": case "UNREADY":
      if (w[0] === "READY") room.ready.add(w[1]); else room.ready.delete(w[1]);
      room.readyCount = [parseInt(w[2], 10) || 0, parseInt(w[3], 10) || 0];
      return true;
    case "COUNTDOWN": room.countdown = w[1] === "-" ? null : parseInt(w[1], 10) || null; return true;
    case "LOCKED": room.locked = true; return true;
    case "UNLOCKED": room.locked = false; return true;
    case "NEWGAME":
      for (const p of room.players.values()) p.score = 0;
      room.chain = []; room.found = null; room.clock = null; room.proposal = null; room.started = null; room.over = null; room.sheet = [];
      room.duration = null; room.ready = new Set(); room.readyCount = null; room.countdown = null;
      room.rematch = null;  // the night's standings stay: they outlive games
      return true;
    case "OVER":
      room.status = "over";
      room.over = w.slice(1).map((entry) => {
        const i = entry.lastIndexOf(":");
        return { name: entry.slice(0, i), score: parseInt(entry.slice(i + 1), 10) || 0 };
      });
      room.sheet = []; room.duration = null;
      return true;
    case "STATS": {
      const fields = pairsOf(w.slice(2));
      const number = (v) => (v === undefined || v === "-" ? null : parseInt(v, 10));
      room.sheet.push({ name: w[1], sets: number(fields.sets) || 0, wrong: number(fields.wrong) || 0,
        stale: number(fields.stale) || 0, fastest: number(fields.fastest), mean: number(fields.mean) });
      return true;
    }
    case "DURATION": room.duration = parseInt(w[1], 10) || 0; return true;
    // The night's standings: `STANDINGS <games>` starts the table again, a `STANDING` line per player follows.
    case "STANDINGS": room.standings = { games: parseInt(w[1], 10) || 0, rows: [] }; return true;
    case "STANDING": {
      if (w.length !== 8) return false;
      const f = pairsOf(w.slice(3));
      const number = (v) => (v === undefined || v === "-" ? null : parseInt(v, 10));
      room.standings.rows.push({ place: number(w[1]) || 0, name: w[2], points: number(f.points) || 0,
        wins: number(f.wins) || 0, games: number(f.games) || 0, sets: number(f.sets) || 0, best: number(f.best) });
      return true;
    }
    case "REMATCH":
      room.rematch = { last: w[1], offers: parseInt(w[2], 10) || 0, needed: parseInt(w[3], 10) || 0 };
      return true;
  }
  return false;
}

/** Who is in favour of the standing proposal, and whether `me` is one of them. */
function proposalVoters(proposal, me) {
  if (!proposal) return { names: [], mine: false };
  return { names: proposal.voters.map((n) => (n === me ? "you" : n)), mine: proposal.voters.includes(me) };
}

/**
 * What a proposal changes, in plain words: the options that differ from the room's (`mode=junior` is
 * "SET junior"), or "the same game again".
 */
function describeProposal(proposal, current) {
  if (!proposal) return "";
  const words = [];
  for (const [key, value] of Object.entries(proposal.options)) {
    if (current[key] === value) continue;
    if (key === "mode") words.push(value === "normal" ? "normal SET" : "SET " + value);
    else if (key === "penalty") words.push(value === "0" ? "no penalty" : "a penalty of " + value);
    else if (key === "hints") words.push(value === "off" ? "no hints" : "hints");
    else if (key === "private") words.push("a private room");
    else if (key === "start") words.push(value === "ready" ? "start when everyone is ready" : "start at once");
    else if (key === "n") words.push(value + " cards a match");
    else if (key === "sets") words.push(value === "off" ? "no set target" : "first to " + value + " sets");
    else if (key === "minutes") words.push(value === "off" ? "no time limit" : value + " minutes");
    else if (key === "practice") words.push(value === "on" ? "practice" : "rated");
    else words.push(key + "=" + value);
  }
  // OPTIONS and VOTE list practice and timing only when they are on: a proposal without them turns them off.
  if (current.practice === "on" && proposal.options.practice === undefined) words.push("rated");
  if (current.sets !== undefined && proposal.options.sets === undefined) words.push("no set target");
  if (current.minutes !== undefined && proposal.options.minutes === undefined) words.push("no time limit");
  return words.length ? words.join(", ") : "the same game again";
}

// ---- the rules ----

// 4Set's fourth values (count 4, blue, dotted, cross) and MegaSet's border (protocol.md, "Cards of MegaSet
// and 4Set"): every classic code keeps its meaning, and a classic card has a single border.
const WORDS = {
  count: { 1: "one", 2: "two", 3: "three", 4: "four" },
  colour: { R: "red", G: "green", P: "purple", B: "blue" },
  fill: { F: "solid", H: "striped", E: "open", D: "dotted" },
  shape: { T: "triangle", C: "circle", S: "square", X: "cross" },
  border: { S: "single", W: "double", O: "dotted" },
};
const ATTRIBUTES = [
  { key: "count", name: "number" }, { key: "colour", name: "colour" },
  { key: "fill", name: "fill" }, { key: "shape", name: "shape" },
];

/**
 * A SET card code of any deck (`3GHT`, MegaSet's `3GHTW`, 4Set's `4BDX`) read as its attributes —
 * `{ count, colour, fill, shape, border }`, border `S` (single), `W` (double) or `O` (dotted) — or null.
 * No deck has a card with a fourth value and a border, so `4BDXW` is null.
 */
function parseSetCard(code) {
  const m = /^([1234])([RGPB])([FHED])([TCSX])([WO]?)$/.exec(String(code).toUpperCase());
  if (!m) return null;
  const fourth = m[1] === "4" || m[2] === "B" || m[3] === "D" || m[4] === "X";
  if (fourth && m[5]) return null;
  return { count: +m[1], colour: m[2], fill: m[3], shape: m[4], border: m[5] || "S" };
}

/** Whether a board token is a face-down card (`??`: memory's cards, and Matchismo's). */
function isFaceDown(code) { return String(code) === "??"; }

/** "three green striped triangles", "… with a double border", for screen readers, tooltips and the rules. */
function describeSetCard(code) {
  if (isFaceDown(code)) return "a face-down card";
  const c = parseSetCard(code);
  if (!c) return String(code);
  return WORDS.count[c.count] + " " + WORDS.colour[c.colour] + " " + WORDS.fill[c.fill] + " " +
    WORDS.shape[c.shape] + (c.count > 1 ? (c.shape === "X" ? "es" : "s") : "") +
    (c.border === "S" ? "" : " with a " + WORDS.border[c.border] + " border");
}

/** Cards one claim names in a SET mode (protocol.md's "a claim is"): 4 for the UltraSet and 4Set modes, 6 for ghostset. */
function cardsPerClaim(mode) {
  if (mode === "ghostset") return 6;
  return ["ultra", "ultrachain", "ultra9", "4set", "4setjr"].includes(mode) ? 4 : 3;
}

/** Cards of the chain a claim reuses: 1 in chain mode, 2 in ultrachain (protocol.md). */
function chainReuse(mode) { return mode === "ultrachain" ? 2 : 1; }

/** Whether a mode's claim is a classic set of three (so the page's own set finder can show an example). */
function isThreeCardSet(mode) { return cardsPerClaim(mode) === 3 && mode !== "memory"; }

/** Every SET mode (protocol.md), with the words the lobby and the room menu show for it. */
const SET_MODES = [
  { mode: "normal", label: "SET" },
  { mode: "junior", label: "SET junior (solid cards only: easier)" },
  { mode: "chain", label: "SET chain (each set reuses a card of the last)" },
  { mode: "ultra", label: "SET ultra (4 cards: two pairs that need the same card)" },
  { mode: "ultrachain", label: "Ultra chain (each ultra reuses 2 cards of the last)" },
  { mode: "ultra9", label: "Ultra 9 (ultra with 9 cards dealt)" },
  { mode: "megaset", label: "MegaSet (a fifth attribute: the border)" },
  { mode: "ghostset", label: "GhostSet (6 cards: three pairs whose missing cards are a set)" },
  { mode: "4set", label: "4Set (four values of each attribute, 4 cards)" },
  { mode: "4setjr", label: "4Set junior (solid cards only)" },
  { mode: "puzzle", label: "Puzzle (find every set on the board)" },
  { mode: "shuffle", label: "Shuffle (the board reshuffles after each set)" },
  { mode: "memory", label: "Memory (cards face down, turn three over)" },
];

/**
 * Where each card of a SET board lies, as set-cli's BoardGrid puts it on an 80-column terminal: columns
 * of three, `a`, `b`, `c` down the first, as cards lie on a table; past 24 cards (MegaSet reaches 48) the
 * columns continue in a second band of three rows below the first, so no board is more than eight
 * columns wide. `{ rows, columns, places: [{ row, column }] }`, 0-based.
 */
function boardPlaces(count) {
  const tableColumns = Math.max(1, Math.ceil(count / 3));
  const band = count > 24 ? Math.ceil(tableColumns / 2) : tableColumns;
  const places = [];
  for (let i = 0; i < count; i++) {
    const column = Math.floor(i / 3);
    places.push({ row: Math.floor(column / band) * 3 + (i % 3), column: column % band });
  }
  return { rows: count > 24 ? 6 : 3, columns: band, places };
}

/**
 * Why three cards are a set or not, attribute by attribute: `{ isSet, attributes: [{ name, values,
 * verdict, ok }] }` — each attribute all the same or all different, as protocol.md's rule says.
 */
function explainSet(codes) {
  const cards = codes.map(parseSetCard);
  if (cards.length !== 3 || cards.some((c) => !c)) return { isSet: false, attributes: [] };
  // The border counts only when a card has one other than single (MegaSet); elsewhere it is always the same.
  const keys = cards.some((c) => c.border !== "S") ? ATTRIBUTES.concat([{ key: "border", name: "border" }]) : ATTRIBUTES;
  const attributes = keys.map(({ key, name }) => {
    const values = cards.map((c) => WORDS[key][c[key]]);
    const distinct = new Set(values).size;
    return { name, values, ok: distinct !== 2,
      verdict: distinct === 1 ? "all the same" : distinct === 3 ? "all different" : "two the same, one not" };
  });
  return { isSet: attributes.every((a) => a.ok), attributes };
}

/** The positions of every set of three on a board of `{ pos, code }`, in board order. */
function findSets(board) {
  const sets = [];
  for (let i = 0; i < board.length; i++) {
    for (let j = i + 1; j < board.length; j++) {
      for (let k = j + 1; k < board.length; k++) {
        if (explainSet([board[i].code, board[j].code, board[k].code]).isSet) sets.push([board[i], board[j], board[k]]);
      }
    }
  }
  return sets;
}

/**
 * The example "How to play" shows: a set on the board if there is one (in a mode whose claim is a set of
 * three), else one of the deck's.
 */
function exampleSet(board, mode) {
  const found = isThreeCardSet(mode || "normal") ? findSets(board || []) : [];
  if (found.length) return { fromBoard: true, cards: found[0].map((c) => c.code), positions: found[0].map((c) => c.pos) };
  return { fromBoard: false, cards: ["1RFT", "2GHC", "3PES"], positions: [] };
}

// ---- times ----

/** Milliseconds as seconds rounded to the nearest tenth, halves up (`1150` → "1.2 s"), or "–". */
function formatSeconds(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms) || ms < 0) return "–";
  const tenths = Math.floor(ms / 100) + (ms % 100 >= 50 ? 1 : 0);
  return Math.floor(tenths / 10) + "." + (tenths % 10) + " s";
}

/** Milliseconds as a clock, `m:ss`, counting whole seconds (as set-cli's clock does). */
function formatClock(ms) {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  const s = seconds % 60;
  return Math.floor(seconds / 60) + ":" + (s < 10 ? "0" : "") + s;
}

// ---- timed and practice games ----

/**
 * How a game may end, as the lobby and the New game choice offer it: `key` is the room options' words
 * (protocol.md: `sets=N` first to N sets, `minutes=M` most sets in M minutes), "" the whole deck.
 */
const TIMINGS = [
  { key: "", label: "Play the whole deck" },
  { key: "sets=3", label: "First to 3 sets" },
  { key: "sets=5", label: "First to 5 sets" },
  { key: "sets=10", label: "First to 10 sets" },
  { key: "minutes=1", label: "Most sets in 1 minute" },
  { key: "minutes=3", label: "Most sets in 3 minutes" },
  { key: "minutes=5", label: "Most sets in 5 minutes" },
  { key: "minutes=10", label: "Most sets in 10 minutes" },
];

/** A room's timing as a TIMINGS key: "sets=5", "minutes=3", "sets=5 minutes=3" (both, made by nc), or "". */
function timingOf(options) {
  const words = [];
  if (options.sets !== undefined && options.sets !== "off") words.push("sets=" + options.sets);
  if (options.minutes !== undefined && options.minutes !== "off") words.push("minutes=" + options.minutes);
  return words.join(" ");
}

/** A timing key in words: "first to 5 sets", "most sets in 3 minutes", both joined by "or", or "". */
function describeTiming(key) {
  const o = pairsOf(wordsOf(key || ""));
  const words = [];
  if (o.sets) words.push("first to " + o.sets + (o.sets === "1" ? " set" : " sets"));
  if (o.minutes) words.push("most sets in " + o.minutes + (o.minutes === "1" ? " minute" : " minutes"));
  return words.join(" or ");
}

/**
 * The options a `NEW` names so the next game has `mode`, the timing `timing` (a TIMINGS key) and
 * practice on or off, given the room's `current` options: only what differs, so a NEW that changes
 * nothing stays a bare NEW (which agrees with a standing proposal). A timing turned off is `sets=off`
 * or `minutes=off`, as protocol.md's options take it.
 */
function newGameOptions(current, { mode, timing, practice }) {
  const out = [];
  if (mode !== undefined && mode !== (current.mode || "normal")) out.push("mode=" + mode);
  if (timing !== undefined) {
    const now = pairsOf(wordsOf(timingOf(current)));
    const next = pairsOf(wordsOf(timing));
    for (const key of ["sets", "minutes"]) {
      if ((now[key] || "off") !== (next[key] || "off")) out.push(key + "=" + (next[key] || "off"));
    }
  }
  if (practice !== undefined && practice !== (current.practice === "on")) out.push("practice=" + (practice ? "on" : "off"));
  return out;
}

/**
 * The play clock of a timed or practice game at Unix time `nowMs`, from its `CLOCK` and `STARTED` lines
 * (protocol.md: while running, CLOCK's ms is the time paused so far; while paused, the play time at the
 * pause): `{ playMs, leftMs, paused }`, `leftMs` null without a time limit; null when the room has no
 * CLOCK (or, running, no STARTED yet).
 */
function playClock(room, nowMs) {
  if (!room.clock) return null;
  let playMs;
  if (!room.clock.running) playMs = room.clock.ms;
  else if (room.started) playMs = Math.max(0, nowMs - room.started - room.clock.ms);
  else return null;
  const minutes = parseInt(room.options.minutes, 10);
  const leftMs = minutes > 0 ? Math.max(0, minutes * 60000 - playMs) : null;
  return { playMs, leftMs, paused: !room.clock.running };
}

/**
 * What the page shows of a timed or practice game beside the deck: the clock ("4:12 left", or the play
 * time "3:07" without a limit), "paused", and the target ("first to 5 sets"); "" for a game with none.
 */
function clockLabel(room, nowMs) {
  const parts = [];
  const clock = playClock(room, nowMs);
  if (clock) {
    parts.push(clock.leftMs !== null ? formatClock(clock.leftMs) + " left" : formatClock(clock.playMs));
    if (clock.paused) parts.push("paused");
  }
  const sets = room.options.sets;
  if (sets !== undefined && sets !== "off") parts.push(describeTiming("sets=" + sets));
  return parts.join(" · ");
}

if (typeof module === "object" && module.exports) {
  module.exports = {
    firstWord, wordsOf, isName, makeReplyTracker, newRoom, applyLine, parseProposal, pairsOf, proposalVoters,
    describeProposal, parseSetCard, describeSetCard, explainSet, findSets, exampleSet, formatSeconds,
    formatClock, WORDS, isFaceDown, cardsPerClaim, isThreeCardSet, SET_MODES, boardPlaces, chainReuse,
    TIMINGS, timingOf, describeTiming, newGameOptions, playClock, clockLabel,
  };
}
