extension WebPage {
    /// The game table, in JavaScript: the session (RESUME with the stored token, HELLO when it is
    /// refused, then the room of the link), the room's state built from snapshot lines and events, the
    /// board and its selection, the scoreboard, events and chat, hints, votes, the ready room and the
    /// results.
    static let tableScript = ##"""
        const $ = (id) => document.getElementById(id);
        const storage = {
          get(key) { try { return localStorage.getItem("setd." + key); } catch (e) { return null; } },
          set(key, value) {
            try { if (value === null) localStorage.removeItem("setd." + key); else localStorage.setItem("setd." + key, value); }
            catch (e) { /* private mode: nothing is remembered */ }
          },
        };
        const NAME_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;
        const isName = (text) => NAME_PATTERN.test(text) && text !== "-";
        const LOG_LIMIT = 200;
        const HINT_SHOW_MS = 6000;

        const params = new URLSearchParams(location.search);
        const session = {
          me: null,                     // our name once HELLO or RESUME said it
          room: params.get("room"),     // the room we want to be in (the link's, or the lobby's choice)
          watching: params.get("watch") === "1",
          roomExtra: "",                // game and options for a room the lobby creates
          startOption: true,            // false once the server refused `start=ready` (an older setd)
          manual: null,                 // why we stopped reconnecting by ourselves
          voteOptions: [],              // the options of the last proposal, to vote for the same one
        };
        if (session.room !== null && !isName(session.room)) session.room = null;
        const linkName = params.get("name");
        if (linkName !== null && isName(linkName) && linkName !== storage.get("name")) {
          storage.set("name", linkName);
          storage.set("token", null);  // the token is another name's seat
        }

        const room = {
          name: null, game: "set", status: "playing", options: {}, rev: 0, board: [], deck: 0,
          chain: [], turn: null, host: null, players: new Map(), ready: new Set(), readyCount: null, role: null,
          fresh: new Set(), hinted: null, over: null,
        };
        // The cards picked so far, by position and code, and the revision at which the first was picked.
        const selection = { cards: [], rev: null, inFlight: false };

        // ---- small helpers ----

        function element(tag, className, text) {
          const e = document.createElement(tag);
          if (className) e.className = className;
          if (text !== undefined) e.textContent = String(text);
          return e;
        }

        let toastTimer = null;
        function toast(text) {
          const t = $("toast");
          t.textContent = text;
          t.hidden = false;
          clearTimeout(toastTimer);
          toastTimer = setTimeout(() => { t.hidden = true; }, 3500);
        }

        let bannerTimer = null;
        function banner(text, kind) {
          const b = $("banner");
          b.textContent = text;
          b.className = "banner" + (kind ? " " + kind : "");
          b.hidden = false;
          clearTimeout(bannerTimer);
          bannerTimer = setTimeout(() => { b.hidden = true; }, 6000);
        }

        function log(kind, ...parts) {
          const list = $("log");
          const item = element("li", kind);
          for (const part of parts) item.append(typeof part === "string" ? document.createTextNode(part) : part);
          list.append(item);
          while (list.children.length > LOG_LIMIT) list.firstChild.remove();
          list.scrollTop = list.scrollHeight;
        }

        function who(name) { return name === session.me ? "you" : name; }
        function cardsNeeded() { return room.options.mode === "ultra" ? 4 : 3; }
        function isSet() { return room.game !== "matchismo"; }

        // ---- views ----

        function showView(view) {
          $("lobby").hidden = view !== "lobby";
          $("table").hidden = view !== "table";
          $("side").hidden = view !== "table";
          $("app").classList.toggle("lobby-only", view === "lobby");
          $("btn-lobby").hidden = view !== "table";
          if (view === "lobby") { $("title").textContent = session.me ? "setd · " + session.me : "setd"; refreshRooms(); }
        }

        function renderAll() {
          renderTitle();
          renderBoard();
          renderChain();
          renderScores();
          renderControls();
          renderWaiting();
        }

        function renderTitle() {
          const mode = isSet() ? (room.options.mode && room.options.mode !== "normal" ? " " + room.options.mode : "") : "";
          $("title").textContent = (room.name || "") + " · " + (isSet() ? "SET" : "Matchismo") + mode +
            (room.role === "spectator" ? " · watching" : "");
        }

        function cardButton(pos, code) {
          const button = element("button", "card");
          button.type = "button";
          button.dataset.card = code;
          button.dataset.pos = pos;
          if (isSet()) {
            button.append(setCardArt(code));
            button.setAttribute("aria-label", pos + ": " + describeSetCard(code));
          } else {
            const c = parsePlayingCard(code);
            button.classList.add("playing");
            if (c && c.down) button.classList.add("down");
            if (c && c.matched) { button.classList.add("matched"); button.disabled = true; }
            button.append(playingCardArt(code));
            button.setAttribute("aria-label", pos + ": " + describePlayingCard(code));
          }
          button.append(element("span", "pos", pos));
          return button;
        }

        function renderBoard() {
          const board = $("board");
          board.className = "board " + (isSet() ? "set" : "matchismo");
          board.hidden = room.status === "waiting";
          board.dataset.rev = String(room.rev);
          const picked = new Set(selection.cards.filter((c) => c.pos).map((c) => c.pos));
          const buttons = room.board.map(({ pos, code }) => {
            const button = cardButton(pos, code);
            if (picked.has(pos)) button.classList.add(selection.inFlight ? "claiming" : "sel");
            if (room.fresh.has(pos)) button.classList.add("fresh");
            if (room.hinted === pos) button.classList.add("hint");
            return button;
          });
          board.replaceChildren(...buttons);
          room.fresh.clear();
        }

        function renderChain() {
          const show = isSet() && room.chain.length > 0 && room.status !== "waiting";
          $("chain").hidden = !show;
          if (!show) return;
          const picked = new Set(selection.cards.filter((c) => !c.pos).map((c) => c.code));
          $("chain-cards").replaceChildren(...room.chain.map((code) => {
            const button = cardButton("", code);
            button.dataset.chain = "1";
            if (picked.has(code)) button.classList.add("sel");
            return button;
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
            if (tags.length) label.append(" ", element("span", "tag", "(" + tags.join(", ") + ")"));
            item.append(label, element("span", "score", p.score));
            items.push(item);
          }
          list.replaceChildren(...items);
          $("scores-title").textContent = "Players" + (room.players.size ? " (" + room.players.size + ")" : "");
        }

        function renderControls() {
          const spectator = room.role === "spectator";
          $("deck").textContent = room.status === "waiting" ? "" :
            (isSet() ? "Deck: " + room.deck : (room.turn && room.turn !== "-" ?
              (room.turn === session.me ? "Your turn" : room.turn + "'s turn") : ""));
          const waiting = room.status === "waiting";
          $("btn-hint").hidden = spectator || waiting || !isSet() || room.options.hints === "off";
          $("btn-new").hidden = spectator || waiting;
          $("btn-sit").hidden = !spectator;
          $("chat-form").hidden = spectator && !session.me;
        }

        function renderWaiting() {
          const waiting = room.status === "waiting";
          $("waiting").hidden = !waiting;
          if (!waiting) return;
          const [ready, seated] = room.readyCount || [room.ready.size, room.players.size];
          const mine = room.ready.has(session.me);
          $("waiting-text").textContent = ready + " of " + seated + " ready. The game starts when everyone is ready" +
            (room.host ? (room.host === session.me ? " or you start it." : " or " + room.host + " starts it.") : ".");
          $("btn-ready").hidden = room.role !== "player";
          $("btn-ready").disabled = mine;
          $("btn-ready").textContent = mine ? "Ready ✓" : "I'm ready";
          $("btn-start").hidden = room.role !== "player" || room.host !== session.me;
        }

        // ---- room state from lines ----

        function resetRoom() {
          room.players = new Map();
          room.ready = new Set();
          room.readyCount = null;
          room.chain = [];
          room.turn = null;
          room.host = null;
          room.hinted = null;
          room.over = null;
          clearSelection();
          $("vote").hidden = true;
          $("over-dialog").hidden = true;
        }

        /** Applies a snapshot (the data of JOIN, WATCH, STATE or RESUME). */
        function applySnapshot(lines, role) {
          resetRoom();
          room.name = null;  // the snapshot names the room (which may be another one)
          room.role = role;
          for (const line of lines) applyStateLine(line, true);
          renderAll();
        }

        /** A snapshot-shaped line (also sent as an event); returns false if it is not one. */
        function applyStateLine(line, inSnapshot) {
          const w = wordsOf(line);
          switch (w[0]) {
            case "ROOM":
              if (room.name !== null && w[1] !== room.name) return true;  // a ROOMS-style line about another room
              room.name = w[1]; room.game = w[2]; room.status = w[4] || "playing";
              if (room.status !== "waiting") { room.ready.clear(); room.readyCount = null; $("countdown").hidden = true; }
              return true;
            case "OPTIONS":
              room.options = {};
              for (const pair of w.slice(1)) { const i = pair.indexOf("="); if (i > 0) room.options[pair.slice(0, i)] = pair.slice(i + 1); }
              return true;
            case "BOARD": applyBoard(parseInt(w[1], 10) || 0, w.slice(2), inSnapshot); return true;
            case "DECK": room.deck = parseInt(w[1], 10) || 0; return true;
            case "CHAIN":  // it follows the BOARD of a set: a chain card picked from the last chain goes now
              room.chain = w[1] === "-" ? [] : w.slice(1);
              if (!inSnapshot) keepSelectionOnBoard();
              return true;
            case "TURN": room.turn = w[1] === "-" ? null : w[1]; return true;
            case "HOST": room.host = w[1]; return true;
            case "PLAYER":
              room.players.set(w[1], { score: parseInt(w[2], 10) || 0, online: w[3] !== "away" });
              return true;
          }
          return false;
        }

        function applyBoard(rev, entries, inSnapshot) {
          const old = new Map(room.board.map((c) => [c.pos, c.code]));
          room.rev = rev;
          room.board = entries.map((entry) => {
            const i = entry.indexOf(":");
            return { pos: entry.slice(0, i), code: entry.slice(i + 1) };
          });
          if (!inSnapshot && old.size > 0) for (const c of room.board) if (old.get(c.pos) !== c.code) room.fresh.add(c.pos);
          if (room.hinted !== null && !room.board.some((c) => c.pos === room.hinted && c.code === old.get(c.pos))) room.hinted = null;
          keepSelectionOnBoard();
        }

        // The board changed under a selection: keep only the cards still there (by code, reading their
        // positions again), and say so. The claim then names the board as it is now, so a card that
        // changed can never be claimed by accident, and nothing is charged for it.
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
          if (applyStateLine(line, false)) {
            if (word === "PLAYER") renderScores(); else renderAll();
            return;
          }
          switch (word) {
            case "JOINED": log("join", who(w[1]) + (w[1] === session.me ? " joined" : " joined the room")); break;
            case "LEFT":
              room.players.delete(w[1]); room.ready.delete(w[1]);
              log("join", w[1] + " left"); renderScores(); renderWaiting(); break;
            case "SET": {
              const minis = w.slice(2).map(miniCard);
              log("set" + (w[1] === session.me ? " me-line" : ""), who(w[1]) + " took a set ", ...minis);
              if (w[1] !== session.me) banner(w[1] + " took a set.", "");
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
              const item = [element("span", "who", w[1]), ": " + line.slice(6 + w[1].length)];
              log("chat", ...item);
              break;
            }
            case "NEWGAME":
              resetRoom(); renderAll();
              log("new", who(w[1]) + " started a new game"); banner("New game!", "good"); break;
            case "VOTE": {
              const options = w.slice(4).filter((o) => !o.startsWith("private="));
              session.voteOptions = options;
              $("vote-text").textContent = who(w[1]) + " asked for a new game (" + w.slice(4).join(" ") + "): " +
                w[2] + " of " + w[3] + " votes.";
              $("btn-vote").hidden = w[1] === session.me || room.role !== "player";
              $("vote").hidden = false;
              log("vote", who(w[1]) + " voted for a new game (" + w[2] + "/" + w[3] + ")");
              break;
            }
            case "OVER": showOver(w.slice(1)); break;
            case "STATS": addStats(w); break;
            case "DURATION": {
              const ms = parseInt(w[1], 10) || 0;
              $("duration").textContent = "The game lasted " + Math.floor(ms / 60000) + " min " +
                Math.round((ms % 60000) / 1000) + " s.";
              break;
            }
            case "READY":
              room.ready.add(w[1]);
              room.readyCount = [parseInt(w[2], 10) || 0, parseInt(w[3], 10) || 0];
              log("ready", who(w[1]) + (w[1] === session.me ? " are" : " is") + " ready (" + w[2] + "/" + w[3] + ")");
              renderScores(); renderWaiting(); break;
            case "COUNTDOWN":
              $("btn-start").hidden = true;
              $("countdown-n").textContent = w[1];
              $("countdown").hidden = false;
              break;
            case "KICKED":
              log("wrong", w[1] + " was removed by " + w[2]);
              if (w[1] === session.me) { session.room = null; setLink(null); room.name = null; showView("lobby"); toast("The host removed you from the room."); }
              break;
            case "LOCKED": log("join", w[1] + " locked the room"); break;
            case "UNLOCKED": log("join", w[1] + " unlocked the room"); break;
            case "BYE": log("join", "The server says goodbye: " + line.slice(4)); break;
            case "ERR": toast(line); break;
            default: break;  // PING needs no answer; unknown lines are ignored (protocol.md)
          }
        }

        function showOver(entries) {
          room.status = "over";
          clearSelection();
          room.over = entries.map((entry) => {
            const i = entry.lastIndexOf(":");
            return { name: entry.slice(0, i), score: entry.slice(i + 1) };
          });
          const list = $("results");
          list.replaceChildren(...room.over.map((r) => {
            const item = element("li", r.name === session.me ? "me" : "");
            item.dataset.player = r.name;
            item.append(element("span", "who", r.name + (r.name === session.me ? " (you)" : "") + " "), element("span", "score", r.score));
            return item;
          }));
          const best = room.over[0];
          $("over-title").textContent = best ? (best.name === session.me ? "You won!" : best.name + " wins") : "Game over";
          $("duration").textContent = "";
          $("over-dialog").hidden = false;
          $("btn-again").hidden = room.role !== "player";
          log("over", "Game over: " + entries.join(" "));
          renderAll();
        }

        function addStats(w) {
          const fields = {};
          for (const pair of w.slice(2)) { const i = pair.indexOf("="); if (i > 0) fields[pair.slice(0, i)] = pair.slice(i + 1); }
          const item = Array.from($("results").children).find((li) => li.dataset.player === w[1]);
          if (!item) return;
          const seconds = (ms) => (ms === undefined || ms === "-") ? "–" : (parseInt(ms, 10) / 1000).toFixed(1) + " s";
          const text = (fields.sets || "0") + (isSet() ? " sets" : " matches") + ", " + (fields.wrong || "0") + " wrong" +
            (isSet() ? ", " + (fields.stale || "0") + " late, fastest " + seconds(fields.fastest) + ", mean " + seconds(fields.mean) : "");
          item.append(element("span", "stats", text));
        }

        // ---- playing ----

        function onCardClick(button) {
          if (room.status === "waiting") return;
          if (room.role !== "player") { toast("You are watching. Sit down to play."); return; }
          if (room.status === "over") { toast("The game is over. Start a new one."); return; }
          const pos = button.dataset.pos, code = button.dataset.card;
          if (!isSet()) { chooseMatchismo(pos); return; }
          if (selection.inFlight) return;
          const index = selection.cards.findIndex((c) => pos ? c.pos === pos : (!c.pos && c.code === code));
          if (index >= 0) {
            selection.cards.splice(index, 1);
            if (selection.cards.length === 0) selection.rev = null;
          } else {
            if (button.dataset.chain && selection.cards.some((c) => !c.pos)) { toast("Reuse exactly one card of the chain."); return; }
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
          const line = "CHOOSE " + names.join(" ") + " @" + selection.rev;
          const done = () => { clearSelection(); renderBoard(); renderChain(); };
          const sent = send(line, (reply) => {
            done();
            if (reply.ok) banner("Set! +1", "good");
            else if (reply.code === "STALE") banner("Too late: the board changed before your claim arrived. No penalty.", "bad");
            else if (reply.code === "NOTSET") banner("Not a set: " + reply.text + (room.options.penalty === "0" ? "" : " (−" + (room.options.penalty || "1") + ")"), "bad");
            else banner(reply.text || reply.line, "bad");
          }, () => { done(); banner("Not connected: your claim was not sent.", "bad"); });
          if (!sent) return;
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

        function newGame(options) {
          send("NEW" + (options && options.length ? " " + options.join(" ") : ""), (reply) => {
            if (!reply.ok) { toast(reply.text || reply.line); return; }
            if (reply.words[2] === "voted") toast("Your vote is in: " + (reply.words[3] || ""));
          });
        }

        // ---- the session ----

        function setLink(name) {
          const url = new URL(location.href);
          if (name) url.searchParams.set("room", name); else url.searchParams.delete("room");
          url.searchParams.delete("name");
          url.searchParams.delete("watch");
          history.replaceState(null, "", url.pathname + url.search);
        }

        function onGreeting() {
          session.manual = null;
          $("reconnect").hidden = true;
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
                hello();
              }
            });
          } else {
            hello();
          }
        }

        function hello() {
          const name = storage.get("name");
          if (!name || !isName(name)) { askName(""); return; }
          send("HELLO " + name, (reply) => {
            if (reply.ok) {
              session.me = reply.words[2];
              storage.set("token", reply.words[3] || null);
              $("name-dialog").hidden = true;
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
          $("name-dialog").hidden = false;
          $("name-input").focus();
        }

        /** After HELLO or RESUME: go to the room of the link, stay in the resumed seat, or the lobby. */
        function enterRoom(seat) {
          if (session.room && session.watching) watch(session.room);
          else if (session.room && session.room !== seat) join(session.room);
          else if (seat) { session.room = seat; setLink(seat); showView("table"); }
          else showView("lobby");
        }

        function join(name) {
          const extra = session.roomExtra + (session.startOption ? " start=ready" : "");
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
              session.room = null; session.roomExtra = "";
              setLink(null);
              showView("lobby");
              toast("Cannot join " + name + ": " + reply.text);
            }
          });
        }

        function watch(name) {
          send("WATCH " + name, (reply) => {
            if (reply.ok) {
              session.room = name; session.watching = true;
              applySnapshot(reply.data, "spectator");
              showView("table");
              log("join", "You are watching " + name + ".");
            } else {
              session.room = null; session.watching = false;
              showView("lobby");
              toast("Cannot watch " + name + ": " + reply.text);
            }
          });
        }

        function leave() {
          send("LEAVE", () => {});
          session.room = null; session.watching = false; room.name = null;
          setLink(null);
          showView("lobby");
        }

        function refreshRooms() {
          send("ROOMS", (reply) => {
            if (!reply.ok) return;
            const list = $("room-list");
            const items = reply.data.map((line) => {
              const w = wordsOf(line);
              const item = element("li");
              item.append(element("span", "name", w[1]), element("span", "meta", (w[2] === "matchismo" ? "Matchismo" : "SET") +
                " · " + w[3] + (w[3] === "1" ? " player" : " players") + " · " + w[4]));
              const joinButton = element("button", "small", "Join");
              joinButton.type = "button";
              joinButton.addEventListener("click", () => { session.roomExtra = ""; join(w[1]); });
              const watchButton = element("button", "small", "Watch");
              watchButton.type = "button";
              watchButton.addEventListener("click", () => watch(w[1]));
              item.append(joinButton, watchButton);
              return item;
            });
            if (items.length === 0) items.push(element("li", "meta", "No public rooms yet: make one above."));
            list.replaceChildren(...items);
          });
        }

        function setStatus(state, delay) {
          const status = $("status");
          status.classList.toggle("offline", state !== "online");
          status.textContent = state === "online" ? "online" : state === "connecting" ? "connecting…" :
            "offline, retrying in " + Math.ceil(delay / 1000) + " s";
        }

        // The server closed, or the network went: reconnect by ourselves, except when the server said
        // why it is pointless (our seat was taken up in another tab, or we were idle or flooding).
        function onClosed(bye) {
          setStatus("offline", RECONNECT_MIN_MS);
          clearSelection();
          if (bye && /^(resumed elsewhere|idle|flood)/.test(bye)) {
            session.manual = bye;
            $("reconnect-text").textContent = bye.startsWith("resumed") ?
              "You opened this seat in another window or tab." :
              "The server closed the connection (" + bye + ").";
            $("reconnect").hidden = false;
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
          const button = event.target.closest(".card");
          if (button && !button.disabled) onCardClick(button);
        });
        $("chain-cards").addEventListener("click", (event) => {
          const button = event.target.closest(".card");
          if (button) onCardClick(button);
        });
        $("btn-hint").addEventListener("click", askHint);
        $("btn-new").addEventListener("click", () => newGame([]));
        $("btn-again").addEventListener("click", () => { $("over-dialog").hidden = true; newGame([]); });
        $("btn-close-over").addEventListener("click", () => { $("over-dialog").hidden = true; });
        $("btn-vote").addEventListener("click", () => { $("btn-vote").hidden = true; newGame(session.voteOptions || []); });
        $("btn-sit").addEventListener("click", () => { if (room.name) join(room.name); });
        $("btn-leave").addEventListener("click", leave);
        $("btn-lobby").addEventListener("click", leave);
        $("btn-ready").addEventListener("click", () => send("READY", (reply) => {
          if (!reply.ok) { toast(reply.text); return; }
          room.ready.add(session.me);
          room.readyCount = [parseInt(reply.words[2], 10) || 0, parseInt(reply.words[3], 10) || 0];
          renderWaiting(); renderScores();
        }));
        $("btn-start").addEventListener("click", () => send("START", (reply) => { if (!reply.ok) toast(reply.text); }));
        $("btn-refresh").addEventListener("click", refreshRooms);
        $("btn-reconnect").addEventListener("click", () => { session.manual = null; $("reconnect").hidden = true; reconnectNow(); });
        $("chat-form").addEventListener("submit", (event) => {
          event.preventDefault();
          const text = $("chat-input").value.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
          if (!text) return;
          send("CHAT " + text, (reply) => { if (reply.ok) $("chat-input").value = ""; else toast(reply.text); });
        });
        $("name-form").addEventListener("submit", (event) => {
          event.preventDefault();
          const name = $("name-input").value.trim();
          if (!isName(name)) { $("name-error").textContent = "1–16 letters, digits, _ or -."; return; }
          storage.set("name", name);
          storage.set("token", null);
          $("name-dialog").hidden = true;
          if (isOpen() && connection.greeted && !session.me) hello(); else reconnectNow();
        });
        function lobbyChoice(watching) {
          const name = $("room-input").value.trim();
          if (!isName(name)) { toast("A room name is 1–16 letters, digits, _ or -."); return; }
          const game = $("game-select").value;
          session.roomExtra = game === "matchismo" ? " matchismo" : game === "normal" ? "" : " mode=" + game;
          if (watching) watch(name); else join(name);
        }
        $("join-form").addEventListener("submit", (event) => { event.preventDefault(); lobbyChoice(false); });
        $("btn-watch").addEventListener("click", () => lobbyChoice(true));

        const letters = storage.get("letters") === "1";
        document.body.classList.toggle("letters", letters);
        $("btn-letters").setAttribute("aria-pressed", String(letters));
        $("btn-letters").addEventListener("click", () => {
          const on = !document.body.classList.contains("letters");
          document.body.classList.toggle("letters", on);
          $("btn-letters").setAttribute("aria-pressed", String(on));
          storage.set("letters", on ? "1" : "0");
        });

        document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") checkAlive(); });
        window.addEventListener("online", checkAlive);
        window.addEventListener("pageshow", (event) => { if (event.persisted) checkAlive(); });

        if (params.get("room") !== null && session.room === null) toast("That room name is not valid.");
        connect();

        """##
}
