// The TV table's pure parts: the standings, the last set taken, what the line under the title says and
// what the strip above the board says. No document, no socket, no clock; `node --test Tests/Page` loads
// this file with model.js (`describeProposal`) and tests it.

/**
 * The players of `room.players` (a Map in join order) best first: `{ name, score, online, rank }`, ties
 * in join order sharing a rank (as `OVER` orders them).
 */
function standings(players) {
  const list = Array.from(players, ([name, p], order) => ({ name, score: p.score, online: p.online, order }));
  list.sort((a, b) => b.score - a.score || a.order - b.order);
  return list.map(({ name, score, online }) => ({
    name, score, online, rank: 1 + list.filter((other) => other.score > score).length,
  }));
}

/** `SET <name> <card> …` as `{ name, cards }`, or null for any other line. */
function takenSet(line) {
  const w = wordsOf(line);
  if (w[0] !== "SET" || w.length < 4) return null;
  return { name: w[1], cards: w.slice(2) };
}

/** The game in words: "SET", "SET junior", "Matchismo, 3 cards a match". */
function gameName(room) {
  if (room.game === "matchismo") {
    const n = room.options.n;
    return "Matchismo" + (n && n !== "2" ? ", " + n + " cards a match" : "");
  }
  const mode = room.options.mode;
  return "SET" + (mode && mode !== "normal" ? " " + mode : "");
}

/**
 * What the strip above the TV's board says when nothing new just happened: the vote in progress, or
 * what the room is waiting for.
 */
function tvStripText(room) {
  const proposal = room.proposal;
  if (proposal && room.status !== "waiting") {
    return proposal.voters[0] + " asks for a new game (" + describeProposal(proposal, room.options) + "): " +
      proposal.votes + " of " + proposal.needed + " votes — " + proposal.voters.join(", ") + ".";
  }
  if (room.status === "waiting") {
    // A snapshot does not say who is ready: the count is known from the first READY or UNREADY seen.
    const count = room.readyCount ? room.readyCount[0] + " of " + room.readyCount[1] + " ready. " : "";
    if (room.players.size === 0) return "Scan the code to join. The game starts when everyone is ready.";
    return count + "The game starts when everyone is ready" +
      (room.host ? ", or when " + room.host + " (the host) starts it." : ".");
  }
  if (room.status === "over") return "Game over. A phone's New game starts another.";
  if (room.game === "matchismo") return room.turn ? room.turn + "'s turn." : "Match ranks or suits.";
  return "Find a set on your phone: " + (room.options.mode === "ultra" ? "four" : "three") + " cards.";
}

if (typeof module === "object" && module.exports) {
  module.exports = { standings, takenSet, gameName, tvStripText };
}
