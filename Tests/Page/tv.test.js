// The join link (Sources/SetWeb/Page/invite.js) and the TV table's pure parts (tvmodel.js, which runs
// in one scope with model.js, as the TV table runs it), with node's own test runner:
//   node --test Tests/Page

"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const page = path.join(__dirname, "..", "..", "Sources", "SetWeb", "Page");
const invite = require(path.join(page, "invite.js"));
const model = require(path.join(page, "model.js"));

// model.js then tvmodel.js in one scope, as the TV's script has them; the TV's functions come out.
const tv = vm.runInNewContext(
  fs.readFileSync(path.join(page, "model.js"), "utf8") + "\n" + fs.readFileSync(path.join(page, "tvmodel.js"), "utf8") +
  "\n({ standings, takenSet, gameName, tvStripText });");

/** A room as model.js builds it from these lines. */
function roomOf(lines) {
  const room = model.newRoom();
  for (const line of lines) model.applyLine(room, line, true);
  return room;
}

test("the join link is setd's /qr.svg link: the page's origin and /?room=NAME", () => {
  assert.equal(invite.joinLink("http://192.168.1.5:7777", "fun"), "http://192.168.1.5:7777/?room=fun");
  assert.equal(invite.joinLink("https://set.example.org", "Friday_2"), "https://set.example.org/?room=Friday_2");
  assert.equal(invite.qrPath("a-b"), "/qr.svg?room=a-b");
  assert.equal(invite.tvLink("http://[fe80::1]:7777", "fun"), "http://[fe80::1]:7777/tv?room=fun");
});

test("the address to read aloud has no http:// (a browser adds it) but keeps https://", () => {
  assert.equal(invite.spokenAddress("http://192.168.1.5:7777"), "192.168.1.5:7777");
  assert.equal(invite.spokenAddress("HTTP://game.lan/"), "game.lan");
  assert.equal(invite.spokenAddress("https://set.example.org"), "https://set.example.org");
});

test("a loopback host is one a phone cannot reach; a LAN address is not", () => {
  for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "::1", "tv.localhost"]) {
    assert.equal(invite.isLoopbackHost(host), true, host);
  }
  for (const host of ["192.168.1.5", "[fe80::1]", "game.lan", "127.0.0.1.example", "10.127.0.1"]) {
    assert.equal(invite.isLoopbackHost(host), false, host);
  }
});

test("standings: best first, ties in join order and sharing a rank", () => {
  const room = roomOf(["PLAYER ann 2 online", "PLAYER bob 5 away", "PLAYER cat 2 online", "PLAYER dan 0 online"]);
  assert.deepEqual(JSON.parse(JSON.stringify(tv.standings(room.players))), [
    { name: "bob", score: 5, online: false, rank: 1 },
    { name: "ann", score: 2, online: true, rank: 2 },
    { name: "cat", score: 2, online: true, rank: 2 },
    { name: "dan", score: 0, online: true, rank: 4 },
  ]);
  assert.equal(tv.standings(new Map()).length, 0);
});

test("a SET line is the taker and the cards; other lines are no set", () => {
  assert.deepEqual(JSON.parse(JSON.stringify(tv.takenSet("SET ann 1RFS 2GHC 3PET"))),
    { name: "ann", cards: ["1RFS", "2GHC", "3PET"] });
  assert.deepEqual(JSON.parse(JSON.stringify(tv.takenSet("SET bob 1RFS 2GHC 3PET 1GFS"))).cards.length, 4);
  assert.equal(tv.takenSet("SETTLE ann a b c"), null);
  assert.equal(tv.takenSet("SET ann"), null);
  assert.equal(tv.takenSet("WRONG ann 1 a b c : colour"), null);
});

test("the game in words", () => {
  assert.equal(tv.gameName(roomOf(["ROOM fun set 1 playing", "OPTIONS mode=normal penalty=1 hints=on"])), "SET");
  assert.equal(tv.gameName(roomOf(["ROOM fun set 1 playing", "OPTIONS mode=junior"])), "SET junior");
  assert.equal(tv.gameName(roomOf(["ROOM c matchismo 1 playing", "OPTIONS n=2"])), "Matchismo");
  assert.equal(tv.gameName(roomOf(["ROOM c matchismo 1 playing", "OPTIONS n=3"])), "Matchismo, 3 cards a match");
});

test("the strip: the vote in progress, else what the room waits for, else the game's hint", () => {
  const voting = roomOf(["ROOM fun set 2 playing", "OPTIONS mode=normal", "PLAYER ann 1 online", "PLAYER bob 0 online",
    "PROPOSAL 1 2 bob mode=junior"]);
  assert.equal(tv.tvStripText(voting), "bob asks for a new game (SET junior): 1 of 2 votes — bob.");
  const waiting = roomOf(["ROOM fun set 2 waiting", "PLAYER ann 0 online", "PLAYER bob 0 online", "HOST ann"]);
  model.applyLine(waiting, "READY ann 1 2", false);
  assert.equal(tv.tvStripText(waiting), "1 of 2 ready. The game starts when everyone is ready, or when ann (the host) starts it.");
  assert.match(tv.tvStripText(roomOf(["ROOM fun set 0 waiting"])), /^Scan the code to join/);
  // Watched after a READY: the snapshot does not say who is ready, so no count is made up.
  const unknown = roomOf(["ROOM fun set 2 waiting", "PLAYER ann 0 online", "PLAYER bob 0 online", "HOST ann"]);
  assert.equal(tv.tvStripText(unknown), "The game starts when everyone is ready, or when ann (the host) starts it.");
  assert.equal(tv.tvStripText(roomOf(["ROOM fun set 1 over"])), "Game over. A phone's New game starts another.");
  assert.equal(tv.tvStripText(roomOf(["ROOM fun set 1 playing", "OPTIONS mode=ultra"])), "Find a set on your phone: four cards.");
  assert.equal(tv.tvStripText(roomOf(["ROOM c matchismo 1 playing", "TURN carl"])), "carl's turn.");
});
