// The cards of every deck (protocol.md, "Cards of MegaSet and 4Set" and "Later modes") as the page's pure
// parts read them:   node --test Tests/Page

"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const model = require(path.join(__dirname, "..", "..", "Sources", "SetWeb", "Page", "model.js"));

/** Every code of a deck: counts, colours, fills, shapes (and border letters) as protocol.md lists them. */
function deck(counts, colours, fills, shapes, borders) {
  const codes = [];
  for (const n of counts) for (const c of colours) for (const f of fills) for (const s of shapes) {
    for (const b of borders) codes.push(n + c + f + s + b);
  }
  return codes;
}

test("every card of every deck reads, each as a different card", () => {
  const classic = deck("123", "RGP", "FHE", "TCS", [""]);
  const mega = deck("123", "RGP", "FHE", "TCS", ["", "W", "O"]);
  const four = deck("1234", "RGPB", "FHED", "TCSX", [""]);
  assert.equal(classic.length, 81);
  assert.equal(mega.length, 243);
  assert.equal(four.length, 256);
  for (const codes of [classic, mega, four]) {
    const seen = new Set(codes.map((code) => JSON.stringify(model.parseSetCard(code))));
    assert.equal(seen.size, codes.length, "two codes read as the same card");
    for (const code of codes) assert.ok(model.parseSetCard(code), code + " does not read");
  }
});

test("a classic code is the same card in every deck: a single border, no fourth value", () => {
  assert.deepEqual(model.parseSetCard("3ght"), { count: 3, colour: "G", fill: "H", shape: "T", border: "S" });
  assert.deepEqual(model.parseSetCard("4BDX"), { count: 4, colour: "B", fill: "D", shape: "X", border: "S" });
  assert.deepEqual(model.parseSetCard("1RFSO"), { count: 1, colour: "R", fill: "F", shape: "S", border: "O" });
});

test("codes no deck has are not cards: a border with a fourth value, a sixth character, a fifth value", () => {
  for (const code of ["4BDXW", "1BFTO", "4RFTW", "3GHTWW", "5RFT", "1YFT", "3GHTX", "??", "", "3GH"]) {
    assert.equal(model.parseSetCard(code), null, code);
  }
});

test("cards are described in words for screen readers, with the fourth values and the border", () => {
  assert.equal(model.describeSetCard("4BDX"), "four blue dotted crosses");
  assert.equal(model.describeSetCard("1RFSO"), "one red solid square with a dotted border");
  assert.equal(model.describeSetCard("3GHTW"), "three green striped triangles with a double border");
  assert.equal(model.describeSetCard("2PEC"), "two purple open circles");
  assert.equal(model.describeSetCard("??"), "a face-down card");
  assert.ok(model.isFaceDown("??"));
  assert.ok(!model.isFaceDown("1RFT"));
});

test("a claim names 3 cards, 4 in the UltraSet and 4Set modes, 6 in ghostset", () => {
  const expected = { normal: 3, junior: 3, chain: 3, ultra: 4, ultrachain: 4, ultra9: 4, megaset: 3,
    ghostset: 6, "4set": 4, "4setjr": 4, puzzle: 3, shuffle: 3, memory: 3 };
  assert.deepEqual(model.SET_MODES.map((m) => m.mode), Object.keys(expected));
  for (const [mode, n] of Object.entries(expected)) assert.equal(model.cardsPerClaim(mode), n, mode);
});

test("MegaSet's border counts in the rule: three cards alike but for two single borders and a double are no set", () => {
  const notSet = model.explainSet(["1RFT", "2RFT", "3RFTW"]);
  assert.equal(notSet.isSet, false);
  assert.deepEqual(notSet.attributes.at(-1), { name: "border", values: ["single", "single", "double"],
    ok: false, verdict: "two the same, one not" });
  assert.equal(model.explainSet(["1RFT", "2RFTW", "3RFTO"]).isSet, true);
  assert.equal(model.explainSet(["1RFT", "2RFT", "3RFT"]).attributes.length, 4, "classic cards: four features");
});

test("the rules' example comes from the board only in modes whose claim is a set of three", () => {
  const board = [{ pos: "a", code: "1RFT" }, { pos: "b", code: "2GHC" }, { pos: "c", code: "3PES" }];
  assert.equal(model.exampleSet(board, "megaset").fromBoard, true);
  assert.equal(model.exampleSet(board, "4set").fromBoard, false);
  assert.equal(model.exampleSet(board, "ghostset").fromBoard, false);
  const faceDown = board.map((c) => ({ pos: c.pos, code: "??" }));
  assert.equal(model.exampleSet(faceDown, "memory").fromBoard, false);
});

test("boards lie in columns of three, in two bands past 24 cards, as set-cli draws them on 80 columns", () => {
  const twelve = model.boardPlaces(12);
  assert.deepEqual([twelve.rows, twelve.columns], [3, 4]);
  assert.deepEqual(twelve.places.slice(0, 4), [{ row: 0, column: 0 }, { row: 1, column: 0 }, { row: 2, column: 0 }, { row: 0, column: 1 }]);
  assert.deepEqual([model.boardPlaces(21).rows, model.boardPlaces(21).columns], [3, 7]);
  const mega = model.boardPlaces(48);
  assert.deepEqual([mega.rows, mega.columns], [6, 8]);
  // x is the 24th card: the last of the first band; y (25th) starts the second band, under a.
  assert.deepEqual(mega.places[23], { row: 2, column: 7 });
  assert.deepEqual(mega.places[24], { row: 3, column: 0 });
  assert.deepEqual(mega.places[47], { row: 5, column: 7 });
  const seen = new Set(mega.places.map((p) => p.row + "," + p.column));
  assert.equal(seen.size, 48, "two cards in one place");
});

test("puzzle's FOUND line: how many of how many, and the found sets; a new game forgets them", () => {
  const room = model.newRoom();
  model.applyLine(room, "ROOM p set 1 playing", true);
  assert.ok(model.applyLine(room, "FOUND 2 5 1RFS,2GHT,3PEC 1RFT,1GFT,1PFT", true));
  assert.deepEqual(room.found, { found: 2, total: 5, sets: [["1RFS", "2GHT", "3PEC"], ["1RFT", "1GFT", "1PFT"]] });
  model.applyLine(room, "FOUND 0 4", false);
  assert.deepEqual(room.found, { found: 0, total: 4, sets: [] });
  model.applyLine(room, "NEWGAME ann", false);
  assert.equal(room.found, null);
});

test("a chained claim reuses one card of the chain, two in ultrachain", () => {
  assert.equal(model.chainReuse("chain"), 1);
  assert.equal(model.chainReuse("ultrachain"), 2);
  const room = model.newRoom();
  model.applyLine(room, "CHAIN 1RFT 2RFT 1GFT 2GFT", false);
  assert.deepEqual(room.chain, ["1RFT", "2RFT", "1GFT", "2GFT"]);
});
