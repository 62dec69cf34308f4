// The replay viewer (`/replay/<id>`): fetches the game's record (`GET /games/<id>`, protocol.md's JSON),
// rebuilds every step with replaymodel.js, and draws the board of the step with cards.js's art. The
// address holds the game and the step (`#12`), so a link shows the same moment to anyone. Server text
// reaches the document only through `textContent`.

const PLAY_STEP_MS = 1400;  // a step every 1.4 s while playing: time to see the set and the cards dealt

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

/** A position's name as the server gives it: a…z, then za…zz. */
function positionName(i) {
  const letter = (n) => String.fromCharCode(97 + n);
  return i < 26 ? letter(i) : "z" + letter(i - 26);
}

const viewer = { replay: null, step: 0, timer: null, spot: null };

function showProblem(text) {
  $("problem").textContent = text;
  $("problem").hidden = false;
  $("status").textContent = "";
}

function cardElement(code, pos) {
  const b = el("div", "card landscape");
  b.dataset.card = code;
  b.dataset.pos = pos;
  b.append(setCardArt(code, false, Boolean(viewer.replay && viewer.replay.mode === "megaset")));
  b.setAttribute("role", "img");
  b.setAttribute("aria-label", pos + ": " + describeSetCard(code));
  b.append(el("span", "pos", pos));
  return b;
}

function renderBoard(step) {
  const taken = new Set(step.result === "set" || step.result === "wrong" ? step.cards : []);
  const spot = new Set(viewer.spot || []);
  const fresh = new Set(step.fresh);
  $("board").replaceChildren(...step.board.map((code, i) => {
    const card = cardElement(code, positionName(i));
    if (taken.has(code)) card.classList.add(step.result === "set" ? "taken-card" : "wrong-card");
    if (spot.has(code)) card.classList.add("spot");
    if (fresh.has(i)) card.classList.add("new-card");
    return card;
  }));
  $("board").hidden = viewer.replay.kind !== "set";
  $("no-board").hidden = viewer.replay.kind === "set";
}

function renderCaption(step) {
  const r = viewer.replay;
  let text = describeStep(step);
  if (step.type === "deal" && r.kind === "set") text += ": " + step.board.length + " cards, " + step.deckLeft + " in the deck";
  if (step.type === "over") {
    const best = replayStandings(step, r.players)[0];
    text += best ? " — " + best.name + " wins with " + best.score : "";
  }
  $("caption-text").textContent = formatClock(step.ms) + "  " + text;
  $("caption").className = "strip" + (step.result === "set" ? " good" : step.result === "wrong" ? " bad" : "");
  $("taken").replaceChildren(...(step.result === "set" ? step.cards.map(miniCard) : []));
}

function renderScores(step) {
  $("scores").replaceChildren(...replayStandings(step, viewer.replay.players).map(({ name, score }) => {
    const item = el("li");
    item.dataset.player = name;
    item.append(el("span", "who", name + " "), el("span", "score", score));
    return item;
  }));
}

function renderMissed(step) {
  const isSetStep = step.result === "set";
  $("missed-title").textContent = isSetStep ? "Missed: on the board, gone with this set" : "Sets on the board now";
  const list = isSetStep ? step.missed : step.onBoard;
  $("missed-none").textContent = list.length ? "Click one to ring its cards." :
    isSetStep ? "None: every set on the board is still there after it." : viewer.replay.kind === "set" ? "None." : "";
  $("missed").replaceChildren(...list.map((cards) => {
    const item = el("li");
    const button = el("button", "");
    button.type = "button";
    button.append(...cards.map(miniCard));
    button.addEventListener("click", () => { viewer.spot = cards; render(); });
    item.append(button);
    return item;
  }));
}

function renderSets() {
  const items = [];
  viewer.replay.steps.forEach((step, i) => {
    if (step.result !== "set") return;
    const item = el("li", i === viewer.step ? "current" : "");
    const button = el("button", "");
    button.type = "button";
    button.append(el("span", "time", formatClock(step.ms) + " "), step.name + " ", ...step.cards.map(miniCard),
      el("span", "time", " " + formatSeconds(step.sinceMs)));
    button.addEventListener("click", () => go(i));
    item.append(button);
    items.push(item);
  });
  $("sets").replaceChildren(...items);
}

function renderTimeline() {
  const r = viewer.replay;
  const end = Math.max(1, r.steps[r.steps.length - 1].ms);
  const ticks = r.steps.map((step, i) => {
    const tick = el("button", "tick " + (step.result || step.type) + (i === viewer.step ? " current" : ""));
    tick.type = "button";
    tick.dataset.step = String(i);
    tick.style.left = (100 * step.ms / end).toFixed(2) + "%";
    tick.title = formatClock(step.ms) + " " + describeStep(step);
    tick.addEventListener("click", (e) => { e.stopPropagation(); go(i); });
    return tick;
  });
  const done = $("timeline-done");
  done.style.width = (100 * r.steps[viewer.step].ms / end).toFixed(2) + "%";
  $("timeline").replaceChildren(done, ...ticks);
  $("timeline").setAttribute("aria-valuemax", String(r.steps.length - 1));
  $("timeline").setAttribute("aria-valuenow", String(viewer.step));
}

function render() {
  const r = viewer.replay;
  const step = r.steps[viewer.step];
  $("replay").dataset.step = String(viewer.step);
  renderBoard(step);
  renderCaption(step);
  renderScores(step);
  renderMissed(step);
  renderSets();
  renderTimeline();
  $("position").textContent = "Step " + viewer.step + " of " + (r.steps.length - 1) + " · " + formatClock(step.ms) +
    " of " + formatClock(r.steps[r.steps.length - 1].ms);
  $("btn-back").disabled = viewer.step === 0;
  $("btn-next").disabled = viewer.step === r.steps.length - 1;
  $("btn-play").textContent = viewer.timer ? "⏸ Pause" : "▶ Play";
}

/** Shows step `i`, and puts it in the address so that the link shows this moment. */
function go(i) {
  const count = viewer.replay.steps.length;
  const next = Math.min(Math.max(0, i), count - 1);
  if (next !== viewer.step) viewer.spot = null;
  viewer.step = next;
  history.replaceState(null, "", "#" + next);
  if (next === count - 1) pause();
  render();
}

function pause() {
  if (viewer.timer) clearInterval(viewer.timer);
  viewer.timer = null;
}

function togglePlay() {
  if (viewer.timer) { pause(); render(); return; }
  if (viewer.step === viewer.replay.steps.length - 1) viewer.step = 0;
  viewer.timer = setInterval(() => go(viewer.step + 1), PLAY_STEP_MS);
  go(viewer.step);
}

function timelineClick(event) {
  // The step nearest the moment clicked.
  const box = $("timeline").getBoundingClientRect();
  const steps = viewer.replay.steps;
  const ms = (event.clientX - box.left) / Math.max(1, box.width) * steps[steps.length - 1].ms;
  let best = 0;
  steps.forEach((s, i) => { if (Math.abs(s.ms - ms) < Math.abs(steps[best].ms - ms)) best = i; });
  go(best);
}

function start(record) {
  viewer.replay = buildReplay(record);
  const r = viewer.replay;
  const mode = r.kind === "matchismo" ? "Matchismo" : "SET" + (r.mode !== "normal" ? " " + r.mode : "");
  const when = record.startedAtMs ? new Date(record.startedAtMs).toISOString().slice(0, 16).replace("T", " ") : "";
  $("title").textContent = "Replay · " + r.room + " · " + mode + (when ? " · " + when + " UTC" : "");
  document.title = "SET · replay of " + r.room;
  $("back").href = "/?room=" + encodeURIComponent(r.room);
  $("status").textContent = (r.steps.length - 1) + " steps";
  $("stage").hidden = false;
  $("side").hidden = false;
  $("btn-first").addEventListener("click", () => { pause(); go(0); });
  $("btn-back").addEventListener("click", () => { pause(); go(viewer.step - 1); });
  $("btn-next").addEventListener("click", () => { pause(); go(viewer.step + 1); });
  $("btn-last").addEventListener("click", () => { pause(); go(r.steps.length - 1); });
  $("btn-play").addEventListener("click", togglePlay);
  $("timeline").addEventListener("click", timelineClick);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLButtonElement && (e.key === " " || e.key === "Enter")) return;
    if (e.key === "ArrowRight") { pause(); go(viewer.step + 1); }
    else if (e.key === "ArrowLeft") { pause(); go(viewer.step - 1); }
    else if (e.key === " ") { e.preventDefault(); togglePlay(); }
    else if (e.key === "Home") { pause(); go(0); }
    else if (e.key === "End") { pause(); go(r.steps.length - 1); }
  });
  window.addEventListener("hashchange", () => go(stepFromHash(location.hash, r.steps.length)));
  go(stepFromHash(location.hash, r.steps.length));
}

const gameId = recordIdFromPath(location.pathname);
if (!gameId) {
  showProblem("This address names no game: a replay's address is /replay/ and the game's 16-digit id.");
} else {
  fetch("/games/" + gameId, { headers: { Accept: "application/json" } })
    .then((response) => {
      if (response.status === 404) {
        throw new Error("No kept public game has the id " + gameId + ". A private room's games can be " +
          "replayed only from inside the room (set-cli: /record " + gameId + ").");
      }
      if (!response.ok) throw new Error("The server answered " + response.status + " for this game.");
      return response.json();
    })
    .then(start)
    .catch((error) => showProblem(error.message || String(error)));
}
