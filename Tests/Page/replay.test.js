// The replay viewer's pure parts (Sources/SetWeb/Page/replaymodel.js, which runs in one scope with
// model.js, as the viewer and the page run it), with node's own test runner:
//   node --test Tests/Page
// The boards are checked against a game played here by a second, deliberately plain reading of
// protocol.md's rules (attributes as numbers, a set when each sums to 0 mod 3), not by the model's code.

"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const page = path.join(__dirname, "..", "..", "Sources", "SetWeb", "Page");
// In this realm (not a new context), so that its arrays compare equal to the tests' own.
const replay = vm.runInThisContext("(function () {\n" +
  fs.readFileSync(path.join(page, "model.js"), "utf8") + "\n" +
  fs.readFileSync(path.join(page, "replaymodel.js"), "utf8") +
  "\nreturn { completingCard, isSetOfCodes, isUltraOfCodes, claimsOn, boardAfterTaking, buildReplay," +
  " describeStep, replayStandings, replayPath, recordIdFromPath, stepFromHash, newestRecordId };\n})")();

// ---- the reference: cards as four numbers ----

const VALUES = ["123", "RGP", "FHE", "TCS"];
const ALL_CODES = [];
for (const a of VALUES[0]) for (const b of VALUES[1]) for (const c of VALUES[2]) for (const d of VALUES[3]) {
  ALL_CODES.push(a + b + c + d);
}
const digits = (code) => [...code].map((ch, i) => VALUES[i].indexOf(ch));
const refIsSet = (cards) => [0, 1, 2, 3].every((i) => cards.reduce((s, c) => s + digits(c)[i], 0) % 3 === 0);
function refSets(board) {
  const sets = [];
  for (let i = 0; i < board.length; i++) for (let j = i + 1; j < board.length; j++) {
    for (let k = j + 1; k < board.length; k++) if (refIsSet([board[i], board[j], board[k]])) sets.push([board[i], board[j], board[k]]);
  }
  return sets;
}

/** A deck in an order of our own: `first`, then the rest shuffled by a small fixed generator. */
function deckStartingWith(first, seed) {
  const rest = ALL_CODES.filter((c) => !first.includes(c));
  let x = seed;
  for (let i = rest.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return first.concat(rest);
}

/**
 * A normal game played to the end by the reference: the first set of each board taken, players taking
 * turns, a wrong claim now and then. Returns the record and, for each set, the board it was taken from.
 */
function playedGame(deck, penalty) {
  let board = deck.slice(0, 12);
  let rest = deck.slice(12);
  const deal = () => { while (refSets(board).length === 0 && rest.length) { board.push(...rest.splice(0, 3)); } };
  deal();
  const events = [{ ms: 0, type: "deal" }];
  const boards = [];
  let ms = 0;
  for (let n = 0; refSets(board).length; n++) {
    const name = n % 3 === 0 ? "bob" : "ann";
    ms += 1000 + 137 * n;
    if (n % 5 === 2) events.push({ ms: ms - 500, type: "claim", name: "bob", cards: board.slice(0, 3), result: "wrong" });
    if (n % 7 === 3) events.push({ ms: ms - 400, type: "join", name: "cat" });  // a kind from a later setd
    const taken = refSets(board)[0];
    boards.push(board.slice());
    events.push({ ms, type: "claim", name, cards: taken, result: "set" });
    // protocol.md: replaced in place while the board would hold under 12, then the gaps closed by
    // moving the last cards into them.
    const holes = taken.map((c) => board.indexOf(c)).sort((a, b) => a - b);
    const keep = board.length - 3;
    for (const hole of holes) board[hole] = keep < 12 && rest.length ? rest.shift() : null;
    while (board.includes(null)) {
      const last = board.pop();
      const hole = board.indexOf(null);
      if (last !== null && hole >= 0) board[hole] = last;
    }
    deal();
  }
  events.push({ ms: ms + 10, type: "over" });
  return {
    record: { id: "00112233aabbccdd", room: "fun", kind: "set", options: { mode: "normal", penalty: String(penalty) },
      startedAtMs: 1, durationMs: ms, deck, players: ["ann", "bob"], events, sheet: [] },
    boards, finalBoard: board,
  };
}

// ---- the tests ----

test("the card completing a pair, and sets and UltraSets by the rules", () => {
  assert.equal(replay.completingCard("1RFT", "2RFT"), "3RFT");
  assert.equal(replay.completingCard("1RFT", "2GHC"), "3PES");
  assert.equal(replay.completingCard("3pes", "3PES"), "3PES");
  assert.ok(replay.isSetOfCodes(["1RFT", "2GHC", "3PES"]));
  assert.ok(!replay.isSetOfCodes(["1RFT", "2GHC", "3PEC"]));
  assert.ok(!replay.isSetOfCodes(["1RFT", "2GHC"]));
  // 1RFT+2RFT want 3RFT; 1GFT+2PFT want 3RFT too: two pairs completed by the same card.
  assert.ok(replay.isUltraOfCodes(["1RFT", "2RFT", "1GFT", "2PFT"]));
  assert.ok(!replay.isUltraOfCodes(["1RFT", "2RFT", "3RFT", "1GFT"]));
});

test("a set leaving a 12-card board is replaced in place by the next cards of the deck", () => {
  const board = ["1RFT", "2RFT", "3RFT", "1GFT", "1PFT", "2GFT", "2PFT", "3GFT", "3PFT", "1RHT", "2RHT", "3RHT"];
  const { board: after, used } = replay.boardAfterTaking(board, ["2RFT", "2GFT", "2PFT"], ["1REC", "2REC", "3REC", "1RES"]);
  assert.equal(used, 3);
  assert.deepEqual(after, ["1RFT", "1REC", "3RFT", "1GFT", "1PFT", "2REC", "3REC", "3GFT", "3PFT", "1RHT", "2RHT", "3RHT"]);
});

test("a set leaving a 15-card board is not replaced: the last cards move into its gaps", () => {
  const board = ALL_CODES.slice(0, 15);
  const { board: after, used } = replay.boardAfterTaking(board, [board[0], board[4], board[13]], ["3PES"]);
  assert.equal(used, 0);
  assert.deepEqual(after, [board[14], board[1], board[2], board[3], board[12], ...board.slice(5, 12)]);
});

test("a replayed game shows, at every set, the board it was taken from, and ends with no set and no deck", () => {
  for (const seed of [1, 7, 2026, 99991]) {
    const { record, boards, finalBoard } = playedGame(deckStartingWith([], seed), 1);
    const r = replay.buildReplay(record);
    const sets = r.steps.filter((s) => s.result === "set");
    assert.equal(sets.length, boards.length, `seed ${seed}`);
    sets.forEach((step, i) => {
      assert.deepEqual(step.board, boards[i], `seed ${seed}, set ${i + 1}`);
      assert.equal(step.onBoard.length, refSets(boards[i]).length);
    });
    const last = r.steps[r.steps.length - 1];
    assert.equal(last.type, "over");
    assert.deepEqual(last.board, finalBoard);
    assert.equal(last.deckLeft, 0);
    assert.equal(last.onBoard.length, 0);
    assert.equal(r.steps[0].type, "deal");
    assert.deepEqual(r.steps[0].board.slice(0, 12), record.deck.slice(0, 12));
    // One step per deal, claim and end: the join of a later setd is not drawn.
    assert.equal(r.steps.length, record.events.filter((e) => e.type !== "join").length);
    // Scores: a set is a point, a wrong claim costs the penalty.
    const wrong = record.events.filter((e) => e.result === "wrong").length;
    const bobSets = sets.filter((s) => s.name === "bob").length;
    assert.equal(last.scores.get("bob"), bobSets - wrong);
    assert.equal(last.scores.get("ann"), sets.length - bobSets);
  }
});

test("each set says how fast it was found: the time since the set before, the first since the deal", () => {
  const { record } = playedGame(deckStartingWith([], 5), 0);
  const sets = replay.buildReplay(record).steps.filter((s) => s.result === "set");
  const times = record.events.filter((e) => e.result === "set").map((e) => e.ms);
  assert.equal(sets[0].sinceMs, times[0]);
  for (let i = 1; i < sets.length; i++) assert.equal(sets[i].sinceMs, times[i] - times[i - 1]);
  assert.equal(replay.describeStep(sets[1]), `${sets[1].name} took a set in ${((times[1] - times[0]) / 1000).toFixed(1)} s`);
});

test("the sets missed at a set are those on its board that shared a card with it; the others stay", () => {
  for (const seed of [3, 11, 123]) {
    const { record, boards } = playedGame(deckStartingWith([], seed), 0);
    const sets = replay.buildReplay(record).steps.filter((s) => s.result === "set");
    let seenMissed = 0;
    sets.forEach((step, i) => {
      const key = (cards) => cards.slice().sort().join(" ");
      const expected = refSets(boards[i])
        .filter((s) => key(s) !== key(step.cards) && s.some((c) => step.cards.includes(c))).map(key).sort();
      assert.deepEqual(step.missed.map(key).sort(), expected, `seed ${seed}, set ${i + 1}`);
      seenMissed += expected.length;
    });
    assert.ok(seenMissed > 0, "these games have sets that were missed");
  }
  // A board of exactly two sets sharing 1RFT: taking one misses the other.
  const first = ["1RFT", "2RFT", "3RFT", "1GFT", "1PFT", "2GHC", "3GEC", "2PEC", "1GHS", "3PHS", "2RHS", "3REC"];
  const sets = refSets(first).map((s) => s.join(" "));
  assert.ok(sets.includes("1RFT 2RFT 3RFT") && sets.includes("1RFT 1GFT 1PFT"), sets.join(", "));
  const record = { id: "x", kind: "set", options: {}, deck: deckStartingWith(first, 1), players: ["ann"],
    events: [{ ms: 0, type: "deal" }, { ms: 2500, type: "claim", name: "ann", cards: ["1RFT", "2RFT", "3RFT"], result: "set" }] };
  const step = replay.buildReplay(record).steps[1];
  assert.ok(step.missed.some((s) => s.slice().sort().join(" ") === "1GFT 1PFT 1RFT"));
  assert.ok(step.missed.every((s) => s.includes("1RFT") || s.includes("2RFT") || s.includes("3RFT")));
});

test("the cards dealt since the step before are marked fresh", () => {
  const { record } = playedGame(deckStartingWith([], 17), 0);
  const steps = replay.buildReplay(record).steps;
  assert.deepEqual(steps[0].fresh, []);
  // A set taken from 12 cards, with the deck not empty: its three places get the next cards.
  const at = steps.findIndex((s) => s.result === "set" && s.board.length === 12 && s.deckLeft > 0);
  assert.ok(at > 0);
  const taken = steps[at].cards.map((c) => steps[at].board.indexOf(c)).sort((a, b) => a - b);
  assert.deepEqual(steps[at + 1].fresh.slice(0, 3), taken);
  const dealt = record.deck.length - steps[at].deckLeft;
  assert.deepEqual(taken.map((i) => steps[at + 1].board[i]), record.deck.slice(dealt, dealt + 3));
});

test("a stale claim, a wrong one and kinds this viewer does not know change no board", () => {
  const deck = deckStartingWith([], 4);
  const record = { id: "x", kind: "set", options: { penalty: "2" }, deck, players: ["ann", "bob"], durationMs: 9000,
    events: [{ ms: 0, type: "deal" }, { ms: 100, type: "vote", name: "bob", options: "mode=junior" },
      { ms: 900, type: "claim", name: "bob", cards: ["1RFT", "1RFT", "1RFT"], result: "wrong" },
      { ms: 900, type: "claim", name: "ann", result: "stale" }, { ms: 1200, type: "kick", name: "zed", by: "ann" }] };
  const r = replay.buildReplay(record);
  assert.deepEqual(r.steps.map((s) => s.type + ":" + (s.result || "")), ["deal:", "claim:wrong", "claim:stale", "over:"]);
  for (const s of r.steps) assert.deepEqual(s.board, r.steps[0].board);
  assert.equal(r.steps[3].scores.get("bob"), -2);
  assert.equal(r.steps[3].ms, 9000);
  assert.equal(replay.describeStep(r.steps[2]), "ann: too late (the board had changed)");
  assert.deepEqual(replay.replayStandings(r.steps[3], r.players).map((s) => s.name), ["ann", "bob"]);
});

test("chain mode: after a set, only sets reusing one of its cards count, and ultra counts UltraSets", () => {
  const board = ["1RFT", "2RFT", "3RFT", "1GFT", "1PFT", "2GHC", "3GEC", "2PEC", "1GHS", "3PHS", "2RHS", "3REC"];
  const chained = replay.claimsOn(board, "chain", ["1RHT", "2GEC", "3PFS"]);
  for (const claim of chained) {
    assert.ok(["1RHT", "2GEC", "3PFS"].includes(claim[0]));
    assert.ok(board.includes(claim[1]) && board.includes(claim[2]) && refIsSet(claim));
  }
  assert.equal(replay.claimsOn(board, "chain", null).length, refSets(board).length);
  for (const claim of replay.claimsOn(board, "ultra", null)) assert.ok(replay.isUltraOfCodes(claim));
  assert.ok(replay.claimsOn(board, "ultra", null).length > 0);
});

test("a Matchismo record replays as its choices, with the sheet's scores at the end", () => {
  const record = { id: "x", kind: "matchismo", options: { n: "2" }, deck: [], players: ["ann", "bob"], durationMs: 5000,
    events: [{ ms: 0, type: "deal" }, { ms: 1000, type: "choose", name: "ann", cards: ["matched 5H 5S for 4"] },
      { ms: 5000, type: "over" }], sheet: [{ name: "ann", score: 4 }, { name: "bob", score: 0 }] };
  const r = replay.buildReplay(record);
  assert.deepEqual(r.steps.map((s) => s.type), ["deal", "choose", "over"]);
  assert.equal(replay.describeStep(r.steps[1]), "ann: matched 5H 5S for 4");
  assert.equal(r.steps[2].scores.get("ann"), 4);
  assert.deepEqual(r.steps[1].board, []);
});

test("links: /replay/<id>, the step in the hash, the newest game's id in HISTORY", () => {
  assert.equal(replay.replayPath("0123456789abcdef"), "/replay/0123456789abcdef");
  assert.equal(replay.recordIdFromPath("/replay/0123456789abcdef"), "0123456789abcdef");
  assert.equal(replay.recordIdFromPath("/replay/0123456789ABCDEF"), null);
  assert.equal(replay.recordIdFromPath("/replay/0123"), null);
  assert.equal(replay.stepFromHash("#12", 30), 12);
  assert.equal(replay.stepFromHash("#99", 30), 29);
  assert.equal(replay.stepFromHash("", 30), 0);
  assert.equal(replay.stepFromHash("#x", 30), 0);
  assert.equal(replay.newestRecordId([
    "HISTORY 3 ann 1RFT 2RFT 3RFT", "HISTORY GAME 2 2026-12-02T20:01:00Z 2026-12-02T20:09:00Z ann:9 bob:3",
    "HISTORY GAME 2 ID 00000000000000aa", "HISTORY GAME 1 2026-12-02T19:01:00Z 2026-12-02T19:09:00Z ann:9",
    "HISTORY GAME 1 ID 00000000000000bb"]), "00000000000000aa");
  assert.equal(replay.newestRecordId(["HISTORY GAME 1 2026-12-02T19:01:00Z 2026-12-02T19:09:00Z ann:9"]), null);
});
