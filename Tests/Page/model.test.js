// The page's pure parts (Sources/SetWeb/Page/model.js), with node's own test runner:
//   node --test Tests/Page
// SetWebTests' PageScriptTests runs this, and `node --check` on every script file, in `swift test`.

"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const page = path.join(__dirname, "..", "..", "Sources", "SetWeb", "Page");
const model = require(path.join(page, "model.js"));
const shapes = JSON.parse(fs.readFileSync(path.join(page, "replies.json"), "utf8"));

/** Feeds lines to a tracker and lists what they were, as text. */
function sort(tracker, lines) {
  const out = [];
  for (const line of lines) {
    for (const item of tracker.receive(line)) {
      if (item.event) out.push("event " + item.event);
      else if (item.unexpected) out.push("unexpected " + item.unexpected);
      else out.push("reply " + item.tag + " " + item.reply.line + " data " + JSON.stringify(item.reply.data));
    }
  }
  return out;
}

test("protocol.md's example: events between replies, and a ROOM event that looks like ROOMS data", () => {
  const tracker = model.makeReplyTracker(shapes);
  tracker.sent("HINT", "hint");
  tracker.sent("ROOMS", "rooms");
  assert.deepEqual(sort(tracker, [
    "HINT b:2RFS", "OK HINT 1", "LEFT alice", "ROOM fun set 1 playing", "HOST bob", "ROOM fun set 1 playing",
    "OK ROOMS 1",
  ]), [
    'reply hint OK HINT 1 data ["HINT b:2RFS"]',
    "event LEFT alice", "event ROOM fun set 1 playing", "event HOST bob",
    'reply rooms OK ROOMS 1 data ["ROOM fun set 1 playing"]',
  ]);
});

test("a snapshot's data, with an event before it and a line a newer server added inside it", () => {
  const tracker = model.makeReplyTracker(shapes);
  tracker.sent("JOIN", "join");
  const out = sort(tracker, [
    "CHAT bob early", "ROOM r set 2 playing", "BOARD 3 a:1RFS", "FUTURE line", "HOST ann", "STARTED 1",
    "PROPOSAL 1 2 bob mode=junior", "OK JOIN r 6",
  ]);
  assert.equal(out[0], "event CHAT bob early");
  assert.deepEqual(JSON.parse(out[1].split(" data ")[1]), [
    "ROOM r set 2 playing", "BOARD 3 a:1RFS", "FUTURE line", "HOST ann", "STARTED 1", "PROPOSAL 1 2 bob mode=junior",
  ]);
});

test("an ERR has no data: what was held is events; a final line with nothing pending is unexpected", () => {
  const tracker = model.makeReplyTracker(shapes);
  tracker.sent("STATE", "state");
  assert.deepEqual(sort(tracker, ["PLAYER bob 1 online", "ERR STATE NOROOM JOIN a room first"]), [
    "event PLAYER bob 1 online", "reply state ERR STATE NOROOM JOIN a room first data []",
  ]);
  assert.deepEqual(sort(tracker, ["ERR - FULL the server is full"]), ["unexpected ERR - FULL the server is full"]);
  tracker.sent("CHAT", "chat");
  assert.deepEqual(sort(tracker, ["FUTURE line"]), ["event FUTURE line"], "no data can come for CHAT");
  assert.equal(tracker.dropAll().length, 1);
});

test("`OK RESUME <name>` (no seat) has no data; `OK RESUME <name> <room> <n>` has n lines", () => {
  const tracker = model.makeReplyTracker(shapes);
  tracker.sent("RESUME", "a");
  assert.deepEqual(sort(tracker, ["ROOM x set 1 playing", "OK RESUME ann"]), [
    "event ROOM x set 1 playing", "reply a OK RESUME ann data []",
  ]);
  tracker.sent("RESUME", "b");
  assert.deepEqual(sort(tracker, ["ROOM x set 1 playing", "OK RESUME ann x 1"]), [
    'reply b OK RESUME ann x 1 data ["ROOM x set 1 playing"]',
  ]);
});

test("the view of a room follows its snapshot and events", () => {
  const room = model.newRoom();
  for (const line of [
    "ROOM night set 2 waiting", "OPTIONS mode=normal penalty=1 hints=on start=ready", "BOARD 1", "DECK 81",
    "PLAYER ann 0 online", "PLAYER bob 0 online", "HOST ann",
  ]) model.applyLine(room, line, true);
  assert.equal(room.status, "waiting");
  assert.equal(room.host, "ann");
  model.applyLine(room, "READY bob 1 2");
  model.applyLine(room, "READY ann 2 2");
  model.applyLine(room, "COUNTDOWN 3");
  assert.equal(room.countdown, 3);
  model.applyLine(room, "UNREADY bob 1 2");
  model.applyLine(room, "COUNTDOWN -");
  assert.deepEqual([...room.ready], ["ann"]);
  assert.equal(room.countdown, null);
  model.applyLine(room, "ROOM night set 2 playing");
  model.applyLine(room, "BOARD 2 a:1RFS b:2GHT c:3PEC");
  model.applyLine(room, "STARTED 1798761600150");
  assert.equal(room.started, 1798761600150);
  assert.equal(room.ready.size, 0, "a dealt room has nobody ready");
  model.applyLine(room, "BOARD 3 a:1RFS b:1GHT c:3PEC");
  assert.deepEqual([...room.fresh], ["b"], "the card dealt in b is marked");
  assert.equal(model.applyLine(room, "ROOM other set 1 playing"), false, "a listing line of another room");
  model.applyLine(room, "PROPOSAL 2 2 bob,ann mode=junior penalty=1 hints=on");
  assert.deepEqual(room.proposal.voters, ["bob", "ann"]);
  assert.deepEqual(model.proposalVoters(room.proposal, "ann"), { names: ["bob", "you"], mine: true });
  assert.equal(model.describeProposal(room.proposal, room.options), "SET junior");
  assert.equal(model.describeProposal({ options: { mode: "normal" } }, { mode: "normal" }), "the same game again");
  model.applyLine(room, "PROPOSAL -");
  assert.equal(room.proposal, null);
  model.applyLine(room, "LOCKED ann");
  assert.equal(room.locked, true);
  model.applyLine(room, "LEFT bob");
  assert.deepEqual([...room.players.keys()], ["ann"]);
  model.applyLine(room, "OVER ann:3 bob:1");
  model.applyLine(room, "STATS ann sets=3 wrong=0 stale=1 fastest=1150 mean=-");
  model.applyLine(room, "DURATION 185000");
  assert.equal(room.status, "over");
  assert.deepEqual(room.over, [{ name: "ann", score: 3 }, { name: "bob", score: 1 }]);
  assert.deepEqual(room.sheet[0], { name: "ann", sets: 3, wrong: 0, stale: 1, fastest: 1150, mean: null });
  assert.equal(model.formatClock(room.duration), "3:05");
});

test("the rules: each feature all the same or all different", () => {
  const set = model.explainSet(["1RFT", "2GHC", "3PES"]);
  assert.equal(set.isSet, true);
  assert.deepEqual(set.attributes.map((a) => a.verdict), ["all different", "all different", "all different", "all different"]);
  const notSet = model.explainSet(["1RFT", "1RFC", "1GFS"]);
  assert.equal(notSet.isSet, false);
  assert.deepEqual(notSet.attributes[1], { name: "colour", values: ["red", "red", "green"], ok: false,
    verdict: "two the same, one not" });
  assert.equal(model.describeSetCard("3GHT"), "three green striped triangles");
  const board = [["a", "1RFT"], ["b", "2RFT"], ["c", "1GFT"], ["d", "3RFT"]].map(([pos, code]) => ({ pos, code }));
  assert.deepEqual(model.findSets(board).map((s) => s.map((c) => c.pos)), [["a", "b", "d"]]);
  assert.deepEqual(model.exampleSet(board), { fromBoard: true, cards: ["1RFT", "2RFT", "3RFT"], positions: ["a", "b", "d"] });
  assert.equal(model.exampleSet([]).fromBoard, false);
});

test("times round to the nearest tenth, halves up, as set-cli rounds them", () => {
  assert.deepEqual([1150, 1190, 1149, 950, 0, 59999, null].map(model.formatSeconds),
    ["1.2 s", "1.2 s", "1.1 s", "1.0 s", "0.0 s", "60.0 s", "–"]);
  assert.deepEqual([0, 999, 1000, 61000, 3599999].map(model.formatClock), ["0:00", "0:00", "0:01", "1:01", "59:59"]);
});

test("names as the protocol allows them", () => {
  assert.equal(model.isName("ann_2-b"), true);
  assert.equal(model.isName("-"), false);
  assert.equal(model.isName("a b"), false);
  assert.equal(model.isName("x".repeat(17)), false);
});

test("a RESUME's TOKEN line is an event at once, before the snapshot it does not belong to", () => {
  const tracker = model.makeReplyTracker(shapes);
  tracker.sent("RESUME", "resume");
  assert.deepEqual(sort(tracker, [
    "TOKEN 0123abcd", "NOTICE someone tried an old token", "ROOM den set 1 playing", "DECK 3", "OK RESUME ann den 2",
  ]), [
    "event TOKEN 0123abcd", "event NOTICE someone tried an old token",
    'reply resume OK RESUME ann den 2 data ["ROOM den set 1 playing","DECK 3"]',
  ]);
});

test("the night's standings and rematch offers: STANDINGS starts the table, STANDING rows fill it, NEWGAME keeps it", () => {
  const room = model.newRoom();
  for (const line of ["ROOM night set 2 over", "STANDINGS 2", "STANDING 1 ann points=5 wins=1 games=2 sets=30 best=2350",
    "STANDING 1 bob points=5 wins=1 games=2 sets=28 best=-", "REMATCH bob 1 2"]) {
    assert.equal(model.applyLine(room, line, false), true, line);
  }
  assert.deepEqual(room.standings, { games: 2, rows: [
    { place: 1, name: "ann", points: 5, wins: 1, games: 2, sets: 30, best: 2350 },
    { place: 1, name: "bob", points: 5, wins: 1, games: 2, sets: 28, best: null }] });
  assert.deepEqual(room.rematch, { last: "bob", offers: 1, needed: 2 });
  assert.equal(model.applyLine(room, "STANDING 1 broken", false), false);
  model.applyLine(room, "NEWGAME bob", false);
  assert.equal(room.rematch, null);
  assert.equal(room.standings.rows.length, 2);
  model.applyLine(room, "STANDINGS 0", false);
  assert.deepEqual(room.standings, { games: 0, rows: [] });
});

test("a STANDINGS reply's lines are its data, a REMATCH line an event", () => {
  const tracker = model.makeReplyTracker(shapes);
  tracker.sent("STANDINGS", "standings");
  assert.deepEqual(sort(tracker, ["REMATCH ann 1 2", "STANDINGS 1", "STANDING 1 ann points=3 wins=1 games=1 sets=3 best=900", "OK STANDINGS 2"]), [
    "event REMATCH ann 1 2",
    'reply standings OK STANDINGS 2 data ["STANDINGS 1","STANDING 1 ann points=3 wins=1 games=1 sets=3 best=900"]',
  ]);
});

test("a timed practice game's clock: CLOCK with STARTED, running then paused, and a new game drops it", () => {
  const room = model.newRoom();
  for (const line of ["ROOM t set 1 playing", "OPTIONS mode=normal penalty=1 hints=on practice=on sets=5 minutes=3",
    "BOARD 1 a:1RFS", "CLOCK 0 running", "STARTED 1000000"]) model.applyLine(room, line, true);
  // Running: play time is now − STARTED − the time paused so far.
  assert.deepEqual(model.playClock(room, 1000000 + 65000), { playMs: 65000, leftMs: 115000, paused: false });
  assert.equal(model.clockLabel(room, 1000000 + 65000), "1:55 left · first to 5 sets");
  // Paused at 70 s of play: the clock stands however late it is read.
  model.applyLine(room, "CLOCK 70000 paused");
  assert.deepEqual(model.playClock(room, 9999999), { playMs: 70000, leftMs: 110000, paused: true });
  assert.equal(model.clockLabel(room, 9999999), "1:50 left · paused · first to 5 sets");
  // Going on after a 30 s pause: those 30 s are left out.
  model.applyLine(room, "CLOCK 30000 running");
  assert.equal(model.playClock(room, 1000000 + 110000).playMs, 80000);
  // Past the limit the clock shows 0:00 left, never less (the server calls time at its tick).
  assert.equal(model.clockLabel(room, 1000000 + 400000), "0:00 left · first to 5 sets");
  model.applyLine(room, "NEWGAME ann");
  assert.equal(room.clock, null);
  assert.equal(model.playClock(room, 0), null);
  assert.equal(model.applyLine(room, "CLOCK 5"), false, "a broken CLOCK line changes nothing");
});

test("practice without a limit counts play time up; a game with neither shows nothing", () => {
  const room = model.newRoom();
  model.applyLine(room, "OPTIONS mode=normal penalty=1 hints=on practice=on");
  model.applyLine(room, "CLOCK 2000 running");
  assert.equal(model.playClock(room, 5000), null, "no STARTED yet: no clock to show");
  model.applyLine(room, "STARTED 1000");
  assert.equal(model.clockLabel(room, 1000 + 2000 + 187000), "3:07");
  const plain = model.newRoom();
  model.applyLine(plain, "OPTIONS mode=normal penalty=1 hints=on");
  assert.equal(model.clockLabel(plain, 5000), "");
});

test("timings: the room's, in words, and the NEW options that reach the chosen game", () => {
  assert.equal(model.timingOf({ mode: "normal" }), "");
  assert.equal(model.timingOf({ sets: "5" }), "sets=5");
  assert.equal(model.timingOf({ sets: "5", minutes: "3" }), "sets=5 minutes=3");
  assert.ok(model.TIMINGS.every((t) => t.key === "" || model.describeTiming(t.key)), "every choice has words");
  assert.equal(model.describeTiming("sets=1 minutes=1"), "first to 1 set or most sets in 1 minute");
  const plain = { mode: "normal", penalty: "1", hints: "on" };
  assert.deepEqual(model.newGameOptions(plain, { mode: "normal", timing: "", practice: false }), [],
    "nothing changed: a bare NEW, which agrees with a standing proposal");
  assert.deepEqual(model.newGameOptions(plain, { mode: "4set", timing: "minutes=3", practice: true }),
    ["mode=4set", "minutes=3", "practice=on"]);
  const timed = { mode: "normal", practice: "on", sets: "5" };
  assert.deepEqual(model.newGameOptions(timed, { mode: "normal", timing: "minutes=5", practice: false }),
    ["sets=off", "minutes=5", "practice=off"]);
  assert.deepEqual(model.newGameOptions(timed, { mode: "normal", timing: "sets=5", practice: true }), []);
});

test("a proposal's timing and practice in words, and what it turns off", () => {
  assert.equal(model.describeProposal({ options: { mode: "normal", practice: "on", minutes: "3" } }, { mode: "normal" }),
    "practice, 3 minutes");
  assert.equal(model.describeProposal({ options: { mode: "normal" } }, { mode: "normal", practice: "on", sets: "5" }),
    "rated, no set target");
});
