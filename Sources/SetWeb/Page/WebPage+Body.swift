extension WebPage {
    /// The page's markup: the header, the lobby, the table (board, controls, scoreboard, events and chat)
    /// and the dialogs, all empty until the script fills them; and the SVG patterns the cards use (the
    /// stripes of the striped fill in each colour, the back of a playing card).
    static let body = ##"""
        <body>
        <svg class="defs" width="0" height="0" aria-hidden="true" focusable="false">
          <defs>
            <pattern id="stripes-R" width="4.5" height="6" patternUnits="userSpaceOnUse">
              <rect width="1.6" height="6" fill="#d3212c"/></pattern>
            <pattern id="stripes-G" width="4.5" height="6" patternUnits="userSpaceOnUse">
              <rect width="1.6" height="6" fill="#109447"/></pattern>
            <pattern id="stripes-P" width="4.5" height="6" patternUnits="userSpaceOnUse">
              <rect width="1.6" height="6" fill="#6a2a95"/></pattern>
            <pattern id="card-back" width="12" height="12" patternUnits="userSpaceOnUse"
              patternTransform="rotate(45)">
              <rect width="12" height="12" fill="#1d4e89"/><rect width="6" height="6" fill="#2a66ad"/></pattern>
          </defs>
        </svg>
        <header class="bar">
          <span class="logo" aria-hidden="true">SET</span>
          <span id="title" class="title">setd</span>
          <span id="status" class="status" role="status">connecting…</span>
          <button id="btn-letters" type="button" class="small" aria-pressed="false"
            title="Show each card's colour as a letter">RGP</button>
          <button id="btn-lobby" type="button" class="small" hidden>Rooms</button>
        </header>
        <main id="app">
          <section id="lobby" class="lobby" hidden>
            <h1>Play SET with friends</h1>
            <form id="join-form" class="panel join-form" autocomplete="off">
              <label>Room <input id="room-input" name="room" maxlength="16" required
                pattern="[A-Za-z0-9_\-]{1,16}" placeholder="fun"></label>
              <label>Game <select id="game-select">
                <option value="normal">SET</option>
                <option value="junior">SET junior (solid only)</option>
                <option value="chain">SET chain</option>
                <option value="ultra">SET ultra (4 cards)</option>
                <option value="matchismo">Matchismo (playing cards)</option>
              </select></label>
              <div class="row"><button type="submit" class="primary">Join</button>
                <button id="btn-watch" type="button">Watch</button></div>
              <p class="hint-text">A game for an existing room keeps that room's game.</p>
            </form>
            <div class="panel">
              <div class="row spread"><h2>Rooms</h2>
                <button id="btn-refresh" type="button" class="small">Refresh</button></div>
              <ul id="room-list" class="room-list"></ul>
            </div>
          </section>
          <section id="table" class="table" hidden>
            <div id="banner" class="banner" aria-live="polite" hidden></div>
            <div id="vote" class="banner vote" hidden>
              <span id="vote-text"></span> <button id="btn-vote" type="button" class="small">Vote yes</button>
            </div>
            <div id="waiting" class="waiting panel" hidden>
              <p id="waiting-text">Waiting for everyone to be ready.</p>
              <div class="row"><button id="btn-ready" type="button" class="primary">I'm ready</button>
                <button id="btn-start" type="button" hidden>Start now</button></div>
            </div>
            <div id="chain" class="chain" hidden>
              <span class="chain-label">Chain: reuse one of</span><div id="chain-cards" class="chain-cards"></div>
            </div>
            <div id="board" class="board" aria-label="the board"></div>
            <div class="controls">
              <span id="deck" class="deck"></span>
              <button id="btn-hint" type="button">Hint</button>
              <button id="btn-new" type="button">New game</button>
              <button id="btn-sit" type="button" hidden>Sit down</button>
              <button id="btn-leave" type="button">Leave</button>
            </div>
          </section>
          <aside id="side" class="side" hidden>
            <div class="panel">
              <h2 id="scores-title">Players</h2>
              <ol id="scores" class="scores"></ol>
            </div>
            <div class="panel events">
              <h2>Events and chat</h2>
              <ol id="log" class="log" aria-live="polite"></ol>
              <form id="chat-form" class="chat-form" autocomplete="off">
                <input id="chat-input" maxlength="900" placeholder="Say something" aria-label="chat">
                <button type="submit">Send</button>
              </form>
            </div>
          </aside>
        </main>
        <div id="name-dialog" class="overlay" hidden>
          <form id="name-form" class="panel dialog" autocomplete="off">
            <h2>Your name</h2>
            <p class="hint-text">1–16 letters, digits, _ or -. Remembered on this device.</p>
            <input id="name-input" maxlength="16" required pattern="[A-Za-z0-9_\-]{1,16}" aria-label="name">
            <p id="name-error" class="error"></p>
            <button type="submit" class="primary">Play</button>
          </form>
        </div>
        <div id="over-dialog" class="overlay" hidden>
          <div class="panel dialog">
            <h2 id="over-title">Game over</h2>
            <ol id="results" class="results"></ol>
            <p id="duration" class="hint-text"></p>
            <div class="row"><button id="btn-again" type="button" class="primary">New game</button>
              <button id="btn-close-over" type="button">See the board</button></div>
          </div>
        </div>
        <div id="countdown" class="overlay countdown" hidden><div id="countdown-n"></div></div>
        <div id="reconnect" class="overlay" hidden>
          <div class="panel dialog">
            <p id="reconnect-text"></p>
            <button id="btn-reconnect" type="button" class="primary">Connect again</button>
          </div>
        </div>
        <div id="toast" class="toast" role="alert" hidden></div>

        """##
}
