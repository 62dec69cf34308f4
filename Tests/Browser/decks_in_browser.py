#!/usr/bin/env python3
"""The page draws every deck: 4Set's fourth values, MegaSet's borders (16 and 48 cards), memory's
face-down cards, and claims of 4 (4set) and 6 (ghostset) cards.

Usage: decks_in_browser.py --port PORT [--host 127.0.0.1] [--out DIR] [--url BASE]

setd serves the page; its WebSocket is replaced before the page loads by a stand-in server that answers
JOIN with a snapshot of each mode, built from protocol.md's codes ("Cards of MegaSet and 4Set", "Later
modes"), so this checks the page against the contract whether or not the daemon offers the mode. For each
deck: every card on the board is drawn from its code (four shapes on a count-4 card, the dotted pattern,
the cross, the blue letter, one/two/dashed border lines, the card back), a claim sends CHOOSE once the
mode's number of cards is picked and not before, MegaSet's za…zv are typed as z then a letter, and the
board fits the window. Screenshots at 1280x800 go to --out: page-4set.png, page-megaset.png,
page-megaset-48.png, page-memory.png, page-ghostset.png.

Exit status: 0 passed, 1 failed (with the reason), 77 skipped because Chromium or selenium cannot start
here (the reason printed). Bounded: everything must finish within a minute.
"""

import argparse
import json
import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_in_browser import SKIP, fail, start_browser, set_viewport, wait_for, page_board, close_tips  # noqa: E402

TOTAL_SECONDS = 60


def deck(counts, colours, fills, shapes, borders=("",)):
    return [n + c + f + s + b for n in counts for c in colours for f in fills for s in shapes for b in borders]


def position_name(i):
    """protocol.md's positions: a…z, then za…zv."""
    return chr(97 + i) if i < 26 else "z" + chr(97 + i - 26)


def board_line(rev, codes):
    return f"BOARD {rev} " + " ".join(f"{position_name(i)}:{code}" for i, code in enumerate(codes))


# The stand-in server: JOIN answers with the snapshot the script put in window.__snapshot; every other
# line is recorded and answered with a final line only (CHOOSE: STALE, so the selection clears).
FAKE_SOCKET = r"""
window.__sent = [];
localStorage.setItem("setd.letters", "1");
class FakeSocket {
  constructor(url) {
    this.readyState = 0;
    setTimeout(() => { this.readyState = 1; this.deliver(["SETD 1 a stand-in"]); }, 0);
  }
  deliver(lines) { for (const data of lines) this.onmessage({ data }); }
  send(line) {
    window.__sent.push(line);
    const words = line.split(" ");
    let reply = ["OK " + words[0]];
    if (words[0] === "HELLO") reply = ["OK HELLO " + words[1] + " t0k"];
    if (words[0] === "JOIN") reply = window.__snapshot.concat(["OK JOIN " + words[1] + " " + window.__snapshot.length]);
    if (words[0] === "CHOOSE") reply = ["ERR CHOOSE STALE a stand-in takes no sets"];
    setTimeout(() => this.deliver(reply), 0);
  }
  close() {}
}
FakeSocket.OPEN = 1;
window.WebSocket = FakeSocket;
"""


def snapshot(room, mode, codes, deck_left):
    return [f"ROOM {room} set 1 playing", f"OPTIONS mode={mode} penalty=1 hints=on", board_line(3, codes),
            f"DECK {deck_left}", "PLAYER ann 0 online", "HOST ann", f"STARTED {int(time.time() * 1000) - 83000}"]


def open_room(driver, base, room, lines):
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": f"window.__snapshot = {json.dumps(lines)};\n" + FAKE_SOCKET})
    driver.get(f"{base}?room={room}&name=ann")
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    count = len(lines[2].split()) - 2
    wait_for(driver, f"the {room} board of {count} cards", lambda: len(page_board(driver)) == count)
    close_tips(driver)
    expected = dict(entry.split(":", 1) for entry in lines[2].split()[2:])
    if page_board(driver) != expected:
        fail(f"{room}: the page shows {page_board(driver)}, the snapshot said {expected}")


def card_art(driver, position):
    """What the SVG of a card holds: shapes (by tag), fills, strokes, border lines, letters."""
    return driver.execute_script("""
        const svg = document.querySelector(`#board [data-pos='${arguments[0]}'] svg`);
        const shapes = Array.from(svg.querySelectorAll('path, circle, rect:not(.border)'));
        const borders = Array.from(svg.querySelectorAll('rect.border'));
        return { tags: shapes.map(s => s.tagName + (s.tagName === 'path' ? s.getAttribute('d').split(/[LHV]/).length : '')),
          fills: shapes.map(s => s.getAttribute('fill')), strokes: shapes.map(s => s.getAttribute('stroke')),
          borders: borders.map(b => b.getAttribute('stroke-dasharray') || 'line'),
          letter: (svg.querySelector('.cb-letter') || {}).textContent || null,
          letterShown: !!svg.querySelector('.cb-letter') && getComputedStyle(svg.querySelector('.cb-letter')).display !== 'none',
          down: svg.classList.contains('down'), label: svg.parentElement.getAttribute('aria-label') };
    """, position)


def click(driver, position):
    driver.find_element("css selector", f"#board [data-pos='{position}']").click()


def sent(driver):
    return driver.execute_script("return window.__sent")


def claim_needs(driver, positions, rev):
    """Picking all but the last card sends nothing; the last sends CHOOSE with every position."""
    before = len(sent(driver))
    for p in positions[:-1]:
        click(driver, p)
    if any(line.startswith("CHOOSE") for line in sent(driver)[before:]):
        fail(f"the page claimed after {len(positions) - 1} cards: {sent(driver)[before:]}")
    click(driver, positions[-1])
    line = f"CHOOSE {' '.join(positions)} @{rev}"
    wait_for(driver, f"the claim {line}", lambda: line in sent(driver))
    wait_for(driver, "the selection to clear after STALE",
             lambda: not driver.find_elements("css selector", "#board .card.sel"))


def fits(driver, what):
    """Every card inside the window, none cut off at the right or the bottom of the board's area."""
    box = driver.execute_script("""
        const r = Array.from(document.querySelectorAll('#board .card'), e => e.getBoundingClientRect());
        return { right: Math.max(...r.map(b => b.right)), width: document.documentElement.clientWidth,
          smallest: Math.min(...r.map(b => b.width)) };""")
    if box["right"] > box["width"]:
        fail(f"{what}: a card reaches {box['right']} px in a {box['width']} px window")
    if box["smallest"] < 60:
        fail(f"{what}: cards are {box['smallest']} px wide, too small to tell apart")


def four_set(driver, base, out, rng):
    cards = deck("1234", "RGPB", "FHED", "TCSX")
    codes = ["4BDX", "1BFT", "2RFX", "3PDC", "4GES"] + rng.sample([c for c in cards if c not in
                                                                 ("4BDX", "1BFT", "2RFX", "3PDC", "4GES")], 10)
    open_room(driver, base, "four", snapshot("four", "4set", codes, 241))
    art = card_art(driver, "a")  # 4BDX: four blue dotted crosses
    if art["tags"] != ["path12"] * 4 or set(art["fills"]) != {"url(#dots-B)"} or art["letter"] != "B":
        fail(f"4BDX is drawn as {art}")
    if not art["letterShown"] or art["label"] != "a: four blue dotted crosses":
        fail(f"4BDX's letter or label: {art}")
    if card_art(driver, "b")["fills"] != ["#2b8fd8"]:
        fail(f"1BFT is not one solid blue shape: {card_art(driver, 'b')}")
    if card_art(driver, "d")["fills"] != ["url(#dots-P)"] * 3:
        fail(f"3PDC's dotted fill: {card_art(driver, 'd')}")
    if "4 cards" not in driver.find_element("id", "strip").text:
        fail(f"the strip does not ask for 4 cards: {driver.find_element('id', 'strip').text!r}")
    fits(driver, "4set")
    driver.save_screenshot(os.path.join(out, "page-4set.png"))
    claim_needs(driver, ["a", "b", "c", "d"], 3)


def mega_set(driver, base, out, rng):
    cards = deck("123", "RGP", "FHE", "TCS", ("", "W", "O"))
    codes = ["1RFT", "2GHCW", "3PESO"] + rng.sample([c for c in cards if c not in ("1RFT", "2GHCW", "3PESO")], 13)
    open_room(driver, base, "mega", snapshot("mega", "megaset", codes, 227))
    borders = [card_art(driver, p)["borders"] for p in "abc"]
    if borders[0] != ["line"] or borders[1] != ["line", "line"] or len(borders[2]) != 1 or borders[2][0] == "line":
        fail(f"the single, double and dotted borders are drawn as {borders}")
    if card_art(driver, "b")["label"] != "b: two green striped circles with a double border":
        fail(f"2GHCW's label: {card_art(driver, 'b')['label']}")
    fits(driver, "megaset 16")
    driver.save_screenshot(os.path.join(out, "page-megaset.png"))
    claim_needs(driver, ["a", "b", "c"], 3)

    # A board of 48 (protocol.md: MegaSet's positions run to zv): six rows, z then a letter picks za.
    open_room(driver, base, "mega48", snapshot("mega48", "megaset", rng.sample(cards, 48), 195))
    rows = driver.execute_script("return getComputedStyle(document.getElementById('board')).gridTemplateRows.split(' ').length")
    if rows != 6:
        fail(f"a board of 48 has {rows} rows, not 6")
    # set-cli's places on 80 columns: two bands of eight columns of three; y starts the second, under a.
    at = driver.execute_script("""const r = p => document.querySelector(`#board [data-pos='${p}']`).getBoundingClientRect();
        return { a: r('a').left, y: r('y').left, c: r('c').bottom, yTop: r('y').top, x: r('x').left, zv: r('zv').left };""")
    if at["a"] != at["y"] or at["yTop"] < at["c"] or at["x"] != at["zv"]:
        fail(f"the 48 cards are not in set-cli's two bands: {at}")
    fits(driver, "megaset 48")
    driver.save_screenshot(os.path.join(out, "page-megaset-48.png"))
    body = driver.find_element("tag name", "body")
    before = len(sent(driver))
    body.send_keys("zazvzb")  # za, zv, zb: three cards named past z
    line = "CHOOSE za zv zb @3"
    wait_for(driver, f"the typed claim {line}", lambda: line in sent(driver)[before:])


def memory(driver, base, out, rng):
    open_room(driver, base, "memo", snapshot("memo", "memory", ["??"] * 21, 60))
    art = card_art(driver, "a")
    if not art["down"] or art["label"] != "a: a face-down card":
        fail(f"a face-down card is drawn as {art}")
    if driver.find_elements("css selector", "#board .card:not(.down)"):
        fail("a face-down card is drawn face up")
    driver.save_screenshot(os.path.join(out, "page-memory.png"))
    claim_needs(driver, ["a", "k", "u"], 3)


def ghost_set(driver, base, out, rng):
    codes = rng.sample(deck("123", "RGP", "FHE", "TCS"), 10)
    open_room(driver, base, "ghost", snapshot("ghost", "ghostset", codes, 71))
    if "6 cards" not in driver.find_element("id", "strip").text:
        fail(f"the strip does not ask for 6 cards: {driver.find_element('id', 'strip').text!r}")
    driver.save_screenshot(os.path.join(out, "page-ghostset.png"))
    claim_needs(driver, ["a", "b", "c", "d", "e", "f"], 3)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True, help="setd's port (lines and HTTP)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--out", default=".", help="where the screenshots go")
    parser.add_argument("--url", help="the page's base URL, if not http://HOST:PORT/")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: fail(f"the browser test took over {TOTAL_SECONDS} s"))
    signal.alarm(TOTAL_SECONDS)
    os.makedirs(args.out, exist_ok=True)
    base = args.url or f"http://{args.host}:{args.port}/"
    rng = random.Random(26)
    driver = start_browser()
    try:
        set_viewport(driver, 1280, 800, False)
        four_set(driver, base, args.out, rng)
        mega_set(driver, base, args.out, rng)
        memory(driver, base, args.out, rng)
        ghost_set(driver, base, args.out, rng)
        print(f"PASS: 4set, megaset (16 and 48), memory and ghostset drawn and claimed; screenshots in {args.out}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
