extension WebPage {
    /// The page's CSS: a green felt table with white cards. One column on a phone (the board first,
    /// three cards a row), the board beside the scoreboard and the events on a laptop, where the board
    /// grows by columns of three as a real table does.
    static let style = ##"""
        :root { --felt: #17532f; --felt-dark: #0e3a20; --ink: #1b1b1b; --panel: #fbfaf6; --accent: #f2b530;
          --sel: #1f7ae0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        * { box-sizing: border-box; }
        html, body { margin: 0; min-height: 100%; }
        body { background: var(--felt); color: var(--ink); -webkit-tap-highlight-color: transparent; }
        [hidden] { display: none !important; }
        .defs { position: absolute; width: 0; height: 0; }
        button { font: inherit; font-size: 15px; padding: 8px 14px; border-radius: 8px; border: 1px solid #c9c4b5;
          background: #fff; color: var(--ink); cursor: pointer; touch-action: manipulation; }
        button:hover { background: #f3f0e6; }
        button.primary { background: var(--accent); border-color: #c98f12; font-weight: 600; }
        button.small { font-size: 13px; padding: 5px 9px; }
        button:disabled { opacity: .5; cursor: default; }
        input, select { font: inherit; font-size: 16px; padding: 7px 9px; border-radius: 7px; border: 1px solid #bdb7a7;
          background: #fff; min-width: 0; }
        h1 { color: #fff; font-size: 24px; margin: 12px 0; text-align: center; }
        h2 { font-size: 15px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .06em; color: #5a5548; }
        .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
        .spread { justify-content: space-between; }
        .panel { background: var(--panel); border-radius: 12px; padding: 12px; box-shadow: 0 2px 10px rgba(0,0,0,.25); }
        .hint-text { font-size: 13px; color: #6b6658; margin: 6px 0; }
        .error { color: #b3261e; font-size: 14px; min-height: 1em; margin: 6px 0; }

        .bar { display: flex; align-items: center; gap: 10px; padding: 8px 12px; background: rgba(0,0,0,.35);
          color: #fff; position: sticky; top: 0; z-index: 5; }
        .logo { font-weight: 800; letter-spacing: .12em; background: #fff; color: #6a2a95; border-radius: 6px;
          padding: 2px 7px; font-size: 15px; }
        .title { font-weight: 600; flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .status { font-size: 13px; opacity: .9; white-space: nowrap; }
        .status.offline { color: #ffb4a8; }
        .bar button { background: rgba(255,255,255,.12); color: #fff; border-color: rgba(255,255,255,.35); }
        .bar button[aria-pressed="true"] { background: #fff; color: var(--ink); }

        main { max-width: 1400px; margin: 0 auto; padding: 10px; display: grid; gap: 12px; }
        .lobby { max-width: 520px; width: 100%; margin: 0 auto; display: grid; gap: 12px; }
        .join-form { display: grid; gap: 10px; }
        .join-form label { display: grid; gap: 4px; font-size: 14px; color: #5a5548; }
        .room-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
        .room-list li { display: flex; gap: 8px; align-items: center; padding: 6px 0; border-top: 1px solid #ebe7dc; }
        .room-list li .name { font-weight: 600; flex: 1; }
        .room-list li .meta { font-size: 13px; color: #6b6658; }

        .table { display: grid; gap: 10px; align-content: start; min-width: 0; }
        .banner { background: #fff8de; border: 1px solid #e8cf7a; border-radius: 10px; padding: 8px 12px; font-size: 15px; }
        .banner.bad { background: #fde8e6; border-color: #e9a29b; }
        .banner.good { background: #e5f6e8; border-color: #8fcf9c; }
        .banner.vote { display: flex; align-items: center; gap: 8px; justify-content: space-between; }
        .waiting { text-align: center; }
        .waiting p { margin: 4px 0 10px; font-size: 16px; }
        .waiting .row { justify-content: center; }

        .board { display: grid; gap: 8px; grid-template-columns: repeat(3, minmax(0, 1fr)); }
        .board.matchismo { grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 6px; }
        .card { position: relative; padding: 0; border: 0; border-radius: 9px; background: #fff; aspect-ratio: 3 / 2;
          width: 100%; box-shadow: 0 2px 0 #cfcabc, 0 3px 8px rgba(0,0,0,.35); transition: transform .12s, box-shadow .12s;
          overflow: hidden; outline: none; }
        .card:hover { background: #fff; }
        .card .art { display: block; width: 100%; height: 100%; }
        .card .pos { position: absolute; right: 6px; bottom: 3px; font-size: 11px; color: #a29d8e; font-weight: 600; }
        .card.sel { transform: translateY(-3px); box-shadow: 0 0 0 4px var(--sel), 0 6px 14px rgba(0,0,0,.45); }
        .card.hint { box-shadow: 0 0 0 4px var(--accent), 0 3px 8px rgba(0,0,0,.35); }
        .card.claiming { box-shadow: 0 0 0 4px #8a8a8a; }
        .card.fresh { animation: deal .5s ease-out; }
        .card:focus-visible { box-shadow: 0 0 0 3px #000, 0 0 0 6px #fff; }
        @keyframes deal { from { transform: scale(.6) rotate(-6deg); opacity: 0; } to { transform: none; opacity: 1; } }
        .cb-letter { display: none; font-size: 15px; font-weight: 800; }
        body.letters .card .cb-letter, body.letters .mini .cb-letter { display: inline; }
        .board.matchismo .card, .card.playing { aspect-ratio: 5 / 7; }
        .card.matched { opacity: .45; cursor: default; }
        .card.down { background: #1d4e89; }
        .card .unknown { font-size: 22px; fill: #777; }
        .chain { display: flex; align-items: center; gap: 10px; color: #fff; font-size: 14px; }
        .chain-cards { display: grid; grid-template-columns: repeat(3, 90px); gap: 6px; }
        .controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
        .deck { color: #e8f1ea; font-size: 14px; margin-right: auto; }

        .side { display: grid; gap: 12px; align-content: start; min-width: 0; }
        .scores { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; }
        .scores li { display: flex; align-items: center; gap: 8px; padding: 5px 8px; border-radius: 8px; background: #f1eee4; }
        .scores li.me { background: #e4efff; }
        .scores li.away { opacity: .6; }
        .scores .who { flex: 1; font-weight: 600; overflow: hidden; text-overflow: ellipsis; }
        .scores .tag { font-size: 12px; color: #6b6658; font-weight: 400; }
        .scores .score { font-variant-numeric: tabular-nums; font-weight: 700; font-size: 18px; min-width: 2ch; text-align: right; }
        .dot { width: 9px; height: 9px; border-radius: 50%; background: #2fa552; flex: none; }
        .away .dot { background: transparent; border: 2px solid #8c8778; }
        .events { display: grid; gap: 8px; }
        .log { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow-y: auto; font-size: 14px;
          display: flex; flex-direction: column; gap: 3px; overflow-wrap: anywhere; }
        .log li { padding: 2px 0; color: #4a463c; }
        .log li.chat .who { font-weight: 700; color: #1d4e89; }
        .log li.set { color: #14502c; }
        .log li.wrong { color: #9d2a20; }
        .log li.me-line { font-weight: 600; }
        .mini { display: inline-block; width: 36px; height: 24px; vertical-align: middle; background: #fff; border-radius: 4px;
          border: 1px solid #d8d3c4; margin: 0 1px; }
        .mini .art { width: 100%; height: 100%; display: block; }
        .chat-form { display: flex; gap: 6px; }
        .chat-form input { flex: 1; }

        .overlay { position: fixed; inset: 0; background: rgba(0,0,0,.5); display: flex; align-items: center;
          justify-content: center; z-index: 20; padding: 16px; }
        .dialog { width: min(420px, 100%); display: grid; gap: 10px; }
        .results { margin: 0; padding-left: 24px; display: grid; gap: 4px; }
        .results li .score { font-weight: 700; }
        .results li .stats { display: block; font-size: 13px; color: #6b6658; }
        .countdown { background: rgba(0,0,0,.35); pointer-events: none; }
        #countdown-n { font-size: 140px; font-weight: 800; color: #fff; text-shadow: 0 4px 20px rgba(0,0,0,.6); }
        .toast { position: fixed; left: 50%; bottom: 18px; transform: translateX(-50%); background: #222; color: #fff;
          padding: 10px 16px; border-radius: 10px; z-index: 30; max-width: calc(100% - 32px); font-size: 15px;
          box-shadow: 0 4px 16px rgba(0,0,0,.4); }

        @media (min-width: 760px) {
          main { grid-template-columns: minmax(0, 1fr) 320px; padding: 16px; gap: 16px; }
          main.lobby-only { grid-template-columns: 1fr; }
          .board.set { grid-auto-flow: column; grid-template-rows: repeat(3, auto); grid-template-columns: none;
            grid-auto-columns: minmax(0, 210px); justify-content: center; gap: 12px; }
          .board.matchismo { grid-template-columns: repeat(10, minmax(0, 1fr)); }
          .card .pos { font-size: 13px; }
          .log { max-height: 380px; }
        }

        """##
}
