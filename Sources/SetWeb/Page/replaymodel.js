// The replay viewer's pure parts: a game record (protocol.md, "RECORD") rebuilt into the board at each
// step from its deck and its events by the rules alone, who took which set and how fast, and the sets
// that were on the board and left it untaken; and the links to the viewer (`/replay/<id>`) that the page
// makes. No document, no socket, no clock: `node --test Tests/Page` loads this file with model.js (whose
// `parseSetCard` it uses, as the page runs them in one scope) and tests it.

// The board sizes protocol.md gives the modes that rooms offer: a claim's cards are replaced in place
// while the board would hold fewer than 12, and a chain breaks once the board has 21.
const REPLAY_BOARD_SIZE = 12;
const REPLAY_CHAIN_LIMIT = 21;

/** The card that makes a set with `a` and `b` (codes), as a code. */
function completingCard(a, b) {
  const x = parseSetCard(a);
  const y = parseSetCard(b);
  const third = (p, q, values) => (p === q ? p : values.find((v) => v !== p && v !== q));
  return String(third(x.count, y.count, [1, 2, 3])) + third(x.colour, y.colour, ["R", "G", "P"]) +
    third(x.fill, y.fill, ["F", "H", "E"]) + third(x.shape, y.shape, ["T", "C", "S"]);
}

/** Whether three codes are a set: each attribute all the same or all different. */
function isSetOfCodes(cards) {
  return cards.length === 3 && cards.every(parseSetCard) && completingCard(cards[0], cards[1]) === canonical(cards[2]);
}

/** Whether four codes are an UltraSet: two pairs that the same card completes. */
function isUltraOfCodes(cards) {
  if (cards.length !== 4 || !cards.every(parseSetCard) || new Set(cards.map(canonical)).size !== 4) return false;
  const [w, x, y, z] = cards;
  return completingCard(w, x) === completingCard(y, z) || completingCard(w, y) === completingCard(x, z) ||
    completingCard(w, z) === completingCard(x, y);
}

function canonical(code) { return String(code).toUpperCase(); }

/** A claim as one comparable key: its codes sorted. */
function claimKey(cards) { return cards.map(canonical).sort().join(" "); }

/**
 * Every claim on `board` (codes) in `mode` (`normal`, `junior`, `chain`, `ultra`), as lists of codes:
 * sets of three, UltraSets of four, and in chain mode, while `chain` holds the previous set, the sets of
 * one of its cards and two of the board's (protocol.md's modes).
 */
function claimsOn(board, mode, chain) {
  const claims = [];
  if (mode === "chain" && chain && chain.length) {
    const at = new Map(board.map((code, i) => [canonical(code), i]));
    for (const reused of chain) {
      board.forEach((card, i) => {
        const third = completingCard(reused, card);
        if ((at.get(third) ?? -1) > i) claims.push([canonical(reused), canonical(card), third]);
      });
    }
    return claims;
  }
  const n = board.length;
  if (mode === "ultra") {
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) for (let c = b + 1; c < n; c++) {
      for (let d = c + 1; d < n; d++) {
        const cards = [board[a], board[b], board[c], board[d]];
        if (isUltraOfCodes(cards)) claims.push(cards);
      }
    }
    return claims;
  }
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) for (let c = b + 1; c < n; c++) {
    const cards = [board[a], board[b], board[c]];
    if (isSetOfCodes(cards)) claims.push(cards);
  }
  return claims;
}

/**
 * The board after `taken` leaves it, as protocol.md says: the holes are refilled in place, in board
 * order, from `deck` while the board would otherwise hold fewer than 12 cards; the holes left are closed
 * by moving the last card into the first hole, again and again. Returns `{ board, used }`, `used` being
 * how many cards of `deck` it took.
 */
function boardAfterTaking(board, taken, deck) {
  const keys = new Set(taken.map(canonical));
  const slots = board.slice();
  const holes = board.map((c, i) => (keys.has(canonical(c)) ? i : -1)).filter((i) => i >= 0);
  let used = 0;
  while (holes.length && board.length - holes.length < REPLAY_BOARD_SIZE && used < deck.length) {
    slots[holes.shift()] = deck[used++];
  }
  for (const hole of holes) slots[hole] = null;
  for (let hole = slots.indexOf(null); hole >= 0; hole = slots.indexOf(null)) {
    const last = slots.pop();
    if (last !== null && hole < slots.length) slots[hole] = last;
  }
  return { board: slots, used };
}

/**
 * The steps of a replay, from a record's JSON object (protocol.md's field names): `{ id, room, kind,
 * mode, durationMs, players, sheet, steps }`. Step 0 is the deal; then one step per claim (or Matchismo
 * choice) and one for the end. Event kinds this viewer does not know are left out.
 *
 * Each step: `{ type, ms, name, result, cards, board, fresh, onBoard, missed, sinceMs, deckLeft,
 * scores }` — `board` the codes on the table when it happened (a claim's cards still on it), `fresh` the
 * positions whose card came since the step before, `onBoard` the claims there were on that board,
 * `missed` (a set taken) those that left the board with it untaken, `sinceMs` (a set) the time since
 * the set before (or the deal), `scores` every player's points after it.
 */
function buildReplay(record) {
  const mode = (record.options && record.options.mode) || "normal";
  const isSet = record.kind !== "matchismo";
  const penalty = parseInt((record.options && record.options.penalty) || "0", 10) || 0;
  const deck = Array.isArray(record.deck) ? record.deck.map(canonical) : [];
  let board = isSet ? deck.slice(0, REPLAY_BOARD_SIZE) : [];
  let rest = isSet ? deck.slice(REPLAY_BOARD_SIZE) : [];
  let chain = null;
  const dealUntilPlayable = () => {
    if (!isSet) return;
    while (claimsOn(board, mode, chain).length === 0) {
      if (mode === "chain" && chain && (rest.length === 0 || board.length >= REPLAY_CHAIN_LIMIT)) {
        chain = null;
        continue;
      }
      if (rest.length === 0) return;
      board = board.concat(rest.slice(0, 3));
      rest = rest.slice(3);
    }
  };
  dealUntilPlayable();
  const scores = new Map((record.players || []).map((name) => [name, 0]));
  const steps = [];
  let previous = [];
  let lastSetMs = 0;
  const push = (step) => {
    const fresh = board.map((c, i) => (previous[i] === c ? -1 : i)).filter((i) => i >= 0);
    previous = board;
    steps.push(Object.assign({ name: null, result: null, cards: [], missed: [], sinceMs: null }, step, {
      board: board.slice(), fresh: steps.length === 0 ? [] : fresh, onBoard: isSet ? claimsOn(board, mode, chain) : [],
      deckLeft: rest.length, scores: new Map(scores),
    }));
  };
  push({ type: "deal", ms: 0 });
  for (const event of record.events || []) {
    const ms = Number.isFinite(event.ms) ? event.ms : 0;
    if (event.type === "claim" && typeof event.name === "string") {
      const cards = Array.isArray(event.cards) ? event.cards.map(canonical) : [];
      if (!scores.has(event.name)) scores.set(event.name, 0);
      if (event.result === "set") {
        const before = claimsOn(board, mode, chain);
        const after = boardAfterTaking(board, cards, rest);
        const nextChain = mode === "chain" ? cards : null;
        const afterKeys = new Set(claimsOn(after.board, mode, nextChain).map(claimKey));
        const takenKey = claimKey(cards);
        const missed = before.filter((c) => claimKey(c) !== takenKey && !afterKeys.has(claimKey(c)));
        scores.set(event.name, scores.get(event.name) + 1);
        push({ type: "claim", ms, name: event.name, result: "set", cards, missed, sinceMs: ms - lastSetMs });
        lastSetMs = ms;
        board = after.board;
        rest = rest.slice(after.used);
        chain = nextChain;
        dealUntilPlayable();
      } else if (event.result === "wrong" || event.result === "stale") {
        if (event.result === "wrong") scores.set(event.name, scores.get(event.name) - penalty);
        push({ type: "claim", ms, name: event.name, result: event.result, cards });
      }
    } else if (event.type === "choose" && typeof event.name === "string") {
      push({ type: "choose", ms, name: event.name, cards: [], text: String((event.cards || [])[0] || "") });
    } else if (event.type === "over") {
      push({ type: "over", ms });
    }
    // Any other kind (joins, leaves, votes, …) is not drawn: the board and the scores do not change.
  }
  if (steps[steps.length - 1].type !== "over") push({ type: "over", ms: record.durationMs || lastSetMs });
  // The sheet's scores are the server's word at the end (Matchismo's points are not in the events).
  const last = steps[steps.length - 1];
  for (const row of record.sheet || []) if (typeof row.score === "number") last.scores.set(row.name, row.score);
  return {
    id: String(record.id || ""), room: String(record.room || ""), kind: isSet ? "set" : "matchismo", mode,
    durationMs: record.durationMs || 0, players: record.players || [], sheet: record.sheet || [], steps,
  };
}

/** What a step says in words: "ann took a set in 4.2 s", "bob: not a set", "Game over". */
function describeStep(step) {
  if (step.type === "deal") return "The deal";
  if (step.type === "over") return "Game over";
  if (step.type === "choose") return step.name + ": " + step.text;
  if (step.result === "set") return step.name + " took a set in " + formatSeconds(step.sinceMs);
  if (step.result === "wrong") return step.name + ": not a set";
  return step.name + ": too late (the board had changed)";
}

/** The standings after a step, best first: `[{ name, score }]`, ties in the record's seat order. */
function replayStandings(step, players) {
  const order = (name) => { const i = players.indexOf(name); return i < 0 ? players.length : i; };
  return Array.from(step.scores, ([name, score]) => ({ name, score }))
    .sort((a, b) => b.score - a.score || order(a.name) - order(b.name));
}

// ---- links ----

/** The viewer's path for a game id: `/replay/<id>`. */
function replayPath(id) { return "/replay/" + id; }

/** The game id in a viewer path (`/replay/<16 hex digits>`), or null. */
function recordIdFromPath(pathname) {
  const m = /^\/replay\/([0-9a-f]{16})\/?$/.exec(String(pathname));
  return m ? m[1] : null;
}

/** The step a link names (`#12`), kept within `0…count-1`; 0 without one. */
function stepFromHash(hash, count) {
  const m = /^#?(\d{1,6})$/.exec(String(hash || ""));
  return m ? Math.min(Math.max(0, parseInt(m[1], 10)), Math.max(0, count - 1)) : 0;
}

/** The id of the newest finished game in `HISTORY`'s data lines (its `GAME <k> ID <id>` line), or null. */
function newestRecordId(lines) {
  for (const line of lines) {
    const m = /^HISTORY GAME \d+ ID ([0-9a-f]{16})$/.exec(line);
    if (m) return m[1];
  }
  return null;
}

if (typeof module === "object" && module.exports) {
  module.exports = {
    completingCard, isSetOfCodes, isUltraOfCodes, claimsOn, boardAfterTaking, buildReplay, describeStep,
    replayStandings, replayPath, recordIdFromPath, stepFromHash, newestRecordId,
  };
}
