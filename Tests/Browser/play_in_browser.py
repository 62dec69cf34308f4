#!/usr/bin/env python3
"""A real browser plays SET on setd's page beside a raw-socket (nc-style) player.

Usage: play_in_browser.py --port PORT [--host 127.0.0.1] [--room fun] [--out DIR] [--url BASE]

Headless Chromium opens http://HOST:PORT/?room=ROOM&name=ann while "bob" is in the room over a plain
TCP socket speaking protocol.md. The page must show bob's board card for card; ann claims a set by
clicking three `data-card` elements that form one (found from the board the page shows) and sees her
score; bob takes a set and the page shows the new cards and the event; a card ann picked that bob takes
leaves her selection with a message; chat goes both ways; a reload gets ann's seat and score back
(RESUME with the token the page keeps). Screenshots at 375x812 and 1280x800 go to --out.

Exit status: 0 passed, 1 failed (with the reason), 77 skipped because Chromium or selenium cannot start
here (the reason printed). Bounded: everything must finish within a minute.
"""

import argparse
import itertools
import os
import shutil
import signal
import socket
import sys
import time

SKIP = 77
TOTAL_SECONDS = 60
WAIT_SECONDS = 10


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(SKIP)


def fail(reason):
    print(f"FAIL: {reason}")
    sys.exit(1)


# ---- the rules, from protocol.md: a SET card is count, colour, fill, shape ----

def is_set(cards):
    """Three cards are a set when each attribute is all the same or all different."""
    return all(len({card[i] for card in cards}) in (1, 3) for i in range(4))


def find_set(board):
    """The positions of a set on `board` (position -> code), or None."""
    for combo in itertools.combinations(sorted(board), 3):
        if is_set([board[p] for p in combo]):
            return list(combo)
    return None


# ---- bob, the nc-style player: one TCP socket, lines in and out ----

class LinePlayer:
    def __init__(self, host, port, name):
        self.name = name
        self.sock = socket.create_connection((host, port), timeout=WAIT_SECONDS)
        self.buffer = b""
        self.seen = []  # every line read, for failure messages
        greeting = self.read_line()
        if not greeting.startswith("SETD 1 "):
            fail(f"{name}: greeting was {greeting!r}")

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def read_line(self):
        while b"\n" not in self.buffer:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                fail(f"{self.name}: nothing from the server for {WAIT_SECONDS} s; last lines {self.seen[-12:]}")
            if not data:
                fail(f"{self.name}: the server closed the connection; read {self.seen[-20:]}")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        text = line.decode().rstrip("\r")
        self.seen.append(text)
        return text

    def request(self, line):
        """Sends a command and reads up to its final line; returns (lines before it, final line)."""
        self.send(line)
        lines = []
        while True:
            text = self.read_line()
            if text.startswith("OK ") or text.startswith("ERR "):
                return lines, text
            lines.append(text)

    def expect(self, prefix):
        """Reads lines until one starts with `prefix`; returns it and the lines before it."""
        skipped = []
        while True:
            text = self.read_line()
            if text.startswith(prefix):
                return text, skipped
            skipped.append(text)


def board_of(line):
    """`BOARD <rev> a:1GES ...` as (rev, {position: code})."""
    words = line.split()
    return int(words[1]), dict(entry.split(":", 1) for entry in words[2:])


# ---- the browser ----

def start_browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as error:
        skip(f"python selenium is not installed ({error}); .ci/run installs it with pip")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        skip("chromium and chromedriver are not installed (Debian: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    # No speculative connections: Chromium may open one ahead of a navigation and send its GET later
    # than setd's sniff window (150 ms) on a loaded machine, when setd has already greeted it as a line
    # client; the page then fails with ERR_INVALID_HTTP_RESPONSE (seen twice at load 14). A browser on a
    # friend's machine sends its request at once, which is what these scripts test.
    options.add_experimental_option("prefs", {"net.network_prediction_options": 2})
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as error:  # the browser cannot start here (no display libraries, no /dev/shm, ...)
        skip(f"Chromium cannot start: {str(error).splitlines()[0] if str(error) else type(error).__name__}")
    driver.set_page_load_timeout(WAIT_SECONDS)
    driver.set_script_timeout(WAIT_SECONDS)
    return driver


def set_viewport(driver, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def greeted_as_a_line_client(driver):
    """Whether Chromium shows its error page for a page request that got setd's line-protocol greeting:
    it opened the connection ahead of time and sent its GET after setd's 150-ms sniff window, which on a
    loaded machine happens even with network prediction off (protocol.md, "HTTP and WebSocket")."""
    try:
        return bool(driver.execute_script(
            "return !document.getElementById('log') && !!document.body"
            " && document.body.innerText.includes('ERR_INVALID_HTTP_RESPONSE')"))
    except Exception:  # a page being replaced: not that page
        return False


def wait_for(driver, what, condition, seconds=WAIT_SECONDS):
    deadline = time.monotonic() + seconds
    last = None
    reloaded = False
    next_look = time.monotonic() + 1
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except Exception as error:  # an element replaced while we read it: read again
            last = error
        # Once a wait, as a person would press Reload: the new request goes out at once.
        if not reloaded and time.monotonic() >= next_look:
            next_look = time.monotonic() + 1
            if greeted_as_a_line_client(driver):
                print(f"note: reloaded while waiting for {what}: Chromium's connection opened ahead of time"
                      " was greeted as a line client", file=sys.stderr)
                reloaded = True
                driver.refresh()
        time.sleep(0.05)
    log = driver.execute_script("const l = document.getElementById('log');"
                                " return l ? l.innerText : 'NO PAGE: ' + document.body.innerText.slice(0, 300)")
    if "ERR_INVALID_HTTP_RESPONSE" in log:
        log += (" (the browser's request got no HTTP answer: Chromium opens a connection ahead of time and"
                " sends its GET later, after setd has taken the connection for a line client and greeted it)")
    fail(f"the page did not show {what} within {seconds} s (last: {last!r}); its events: {log!r}")


def page_board(driver):
    """The board the page shows, read from its `data-card` elements: {position: code}."""
    return driver.execute_script(
        "const b = {}; for (const e of document.querySelectorAll('#board [data-card]')) b[e.dataset.pos] ="
        " e.dataset.card; return b;")


def page_score(driver, name):
    return driver.execute_script(
        "const li = document.querySelector(`#scores li[data-player='${arguments[0]}']`);"
        " return li ? li.querySelector('.score').textContent + ' ' + li.className : null;", name)


def close_tips(driver):
    """The first visit on a phone shows tips over the table; "Got it" closes them for good."""
    tips = driver.find_element("id", "tips-dialog")
    if tips.is_displayed():
        driver.find_element("id", "tips-close").click()
        wait_for(driver, "the tips to close", lambda: not tips.is_displayed())


def click_card(driver, position):
    driver.find_element("css selector", f"#board [data-pos='{position}']").click()


# A stand-in server for the pairing check: the page's WebSocket replaced before the page loads, answering
# each line the page sends with lines from this script. The replies interleave events with data lines
# the way protocol.md's "Telling data from events" says a server may.
FAKE_SOCKET = r"""
window.__sent = [];
const replies = {
  "HELLO pat": ["OK HELLO pat t0k"],
  "JOIN pair start=ready": ["ERR JOIN BADOPTION unknown option start"],
  "JOIN pair": ["ROOM pair set 2 playing", "CHAT bob hi early", "ROOM pair set 2 playing",
    "OPTIONS mode=normal penalty=1 hints=on",
    "BOARD 5 a:1GES b:2RFS c:3PFS d:2PHT e:1RES f:3PES g:2RFT h:3GFT i:3REC j:2REC k:2GFT l:1RHC",
    "DECK 69", "PLAYER bob 0 online", "PLAYER pat 0 online", "OK JOIN pair 6"],
  "HINT": ["PLAYER bob 4 online", "HINT b:2RFS", "OK HINT 1"],
  "CHOOSE f k l @5": ["ERR CHOOSE STALE the board changed since revision 5; it is now 6"],
};
class FakeSocket {
  constructor(url) {
    this.readyState = 0;
    setTimeout(() => { this.readyState = 1; this.deliver(["SETD 1 a stand-in"]); }, 0);
  }
  deliver(lines) { for (const data of lines) this.onmessage({ data }); }
  send(line) {
    window.__sent.push(line);
    const verb = line.split(" ")[0];
    setTimeout(() => this.deliver(replies[line] || ["ERR " + verb + " UNKNOWN not in the script"]), 0);
  }
  close() {}
}
FakeSocket.OPEN = 1;
window.WebSocket = FakeSocket;
"""


def reply_pairing(driver, base):
    """Events between and before a reply's data lines are shown as events, and the data as data."""
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_SOCKET})
    try:
        driver.get(f"{base}?room=pair&name=pat")
        wait_for(driver, "the stand-in's board", lambda: len(page_board(driver)) == 12)
        wait_for(driver, "the chat that came before JOIN's data",
                 lambda: "bob: hi early" in driver.find_element("id", "log").text)
        driver.find_element("id", "btn-hint").click()
        wait_for(driver, "HINT's data as the hint", lambda: driver.find_elements("css selector", "#board [data-pos='b'].hint"))
        wait_for(driver, "the PLAYER event before HINT's data", lambda: (page_score(driver, "bob") or "").startswith("4 "))
        for position in ("f", "k", "l"):
            click_card(driver, position)
        wait_for(driver, "the STALE message", lambda: "No penalty" in driver.find_element("id", "strip").text)
        sent = driver.execute_script("return window.__sent")
        if sent != ["HELLO pat", "JOIN pair start=ready", "JOIN pair", "HINT", "CHOOSE f k l @5"]:
            fail(f"the page sent {sent}")
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def reload_keeps_seat(driver, bob, room, board, score):
    """A reload gets ann's seat back through the token the page keeps: same score, online, same board,
    and bob sees nobody join or leave. Every RESUME retires the token it presents and hands out a new
    one (a TOKEN line), which the page keeps: so a second reload gets the seat back too."""
    before = len(bob.seen)
    for reload in (1, 2):
        token = driver.execute_script("return localStorage.getItem('setd.token')")
        driver.refresh()
        wait_for(driver, f"ann's seat in {room} after reload {reload}",
                 lambda: (page_score(driver, "ann") or "").startswith(f"{score} online"))
        wait_for(driver, f"the board after reload {reload}", lambda: page_board(driver) == board)
        wait_for(driver, f"a new token kept after reload {reload}",
                 lambda: driver.execute_script("return localStorage.getItem('setd.token')") not in (None, token))
    bob.request("PING")
    churn = [line for line in bob.seen[before:] if line.startswith(("JOINED ann", "LEFT ann"))]
    if churn:
        fail(f"the reload cost ann her seat: bob saw {churn}")


def ready_room(driver, bob, base, name):
    """A room made with start=ready: the page waits with a Ready button, and deals after the countdown.

    A setd without ready rooms refuses the option (BADOPTION); the page then joins without it, and this
    part says that it did not run."""
    _, final = bob.request(f"JOIN {name} start=ready")
    if final.startswith("ERR JOIN BADOPTION"):
        print("NOTE: this setd has no start=ready rooms; the ready-room part did not run")
        return None
    if not final.startswith(f"OK JOIN {name} "):
        fail(f"JOIN {name} start=ready: {final}")
    driver.get(f"{base}?room={name}")  # the name is remembered: no ?name= this time
    bob.expect("JOINED ann")
    wait_for(driver, "the Ready button of a waiting room",
             lambda: driver.find_element("id", "btn-ready").is_displayed() and not page_board(driver))
    close_tips(driver)
    driver.find_element("id", "btn-ready").click()
    bob.expect("READY ann ")
    _, final = bob.request("READY")
    if not final.startswith("OK READY "):
        fail(f"bob's READY: {final}")
    wait_for(driver, "the countdown", lambda: driver.find_element("id", "countdown").is_displayed())
    _, deal = board_of(bob.expect("BOARD ")[0])
    wait_for(driver, "the deal after the countdown", lambda: page_board(driver) == deal and
             not driver.find_element("id", "waiting").is_displayed())
    return name, deal, 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True, help="setd's port (lines and HTTP)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--room", default="fun")
    parser.add_argument("--out", default=".", help="where the screenshots go")
    parser.add_argument("--url", help="the page's base URL, if not http://HOST:PORT/")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: fail(f"the browser test took over {TOTAL_SECONDS} s"))
    signal.alarm(TOTAL_SECONDS)

    bob = LinePlayer(args.host, args.port, "bob")
    _, final = bob.request("HELLO bob")
    if not final.startswith("OK HELLO bob "):
        fail(f"HELLO bob: {final}")
    snapshot, final = bob.request(f"JOIN {args.room}")
    if not final.startswith(f"OK JOIN {args.room} "):
        fail(f"JOIN: {final}")
    rev, board = board_of(next(line for line in snapshot if line.startswith("BOARD ")))

    driver = start_browser()
    try:
        set_viewport(driver, 1280, 800, False)
        base = args.url or f"http://{args.host}:{args.port}/"
        driver.get(f"{base}?room={args.room}&name=ann")

        # The page joins and shows the server's board, card for card, and both players.
        bob.expect("JOINED ann")
        wait_for(driver, "bob's board", lambda: page_board(driver) == board)
        wait_for(driver, "ann and bob on the scoreboard",
                 lambda: page_score(driver, "ann") and page_score(driver, "bob"))
        art = driver.execute_script(
            "const c = document.querySelector('#board [data-card]'); return c && c.querySelectorAll("
            "'svg path, svg circle, svg rect').length;")
        if not art:
            fail("the cards have no SVG shapes")
        loaded = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        if loaded:
            fail(f"the page loaded more than itself (a LAN may have no internet): {loaded}")

        # ann claims a set by clicking three cards that form one on the board she sees.
        claim = find_set(board)
        if claim is None:
            fail(f"no set on the first board {board}; start the daemon with a --seed that deals one")
        for position in claim:
            click_card(driver, position)
        line, _ = bob.expect("SET ann ")
        if sorted(line.split()[2:]) != sorted(board[p] for p in claim):
            fail(f"ann clicked {[board[p] for p in claim]} but the server took {line}")
        rev, board = board_of(bob.expect("BOARD ")[0])
        wait_for(driver, "ann's score 1", lambda: (page_score(driver, "ann") or "").startswith("1 "))
        wait_for(driver, "the board after ann's set", lambda: page_board(driver) == board)
        os.makedirs(args.out, exist_ok=True)

        # ann picks one card of a set bob then takes: the page drops it from her selection and says so.
        bob_claim = find_set(board)
        if bob_claim is None:
            fail(f"no set for bob on {board}")
        click_card(driver, bob_claim[0])
        wait_for(driver, "ann's selected card",
                 lambda: driver.find_elements("css selector", "#board .card.sel"))
        _, final = bob.request(f"CHOOSE {' '.join(bob_claim)} @{rev}")
        if not final.startswith("OK CHOOSE "):
            fail(f"bob's claim: {final}")
        rev, board = board_of(next(line for line in bob.seen[::-1] if line.startswith("BOARD ")))
        wait_for(driver, "the new cards after bob's set", lambda: page_board(driver) == board)
        wait_for(driver, "bob's set in the events",
                 lambda: "bob took a set" in driver.find_element("id", "log").text)
        wait_for(driver, "bob's score 1", lambda: (page_score(driver, "bob") or "").startswith("1 "))
        if driver.find_elements("css selector", "#board .card.sel"):
            fail("a card bob took is still selected on the page")
        wait_for(driver, "the message that a picked card is gone",
                 lambda: "gone" in driver.find_element("id", "strip").text)

        # Chat both ways (server text shown as text, never as markup).
        bob.request("CHAT hi <b>ann</b>")
        wait_for(driver, "bob's chat", lambda: "bob: hi <b>ann</b>" in driver.find_element("id", "log").text)
        if driver.find_elements("css selector", "#log b"):
            fail("chat text became markup")
        box = driver.find_element("id", "chat-input")
        box.send_keys("hello bob")
        driver.find_element("css selector", "#chat-form button").click()
        bob.expect("CHAT ann hello bob")
        driver.save_screenshot(os.path.join(args.out, "page-1280x800.png"))

        # The phone: 375 px wide, nothing wider than the screen, every card on it.
        set_viewport(driver, 375, 812, True)
        wait_for(driver, "the page at 375 px without sideways scrolling",
                 lambda: driver.execute_script("return document.documentElement.scrollWidth") <= 375)
        widest = driver.execute_script(
            "return Math.max(...Array.from(document.querySelectorAll('#board .card'), e =>"
            " e.getBoundingClientRect().right));")
        if widest > 375:
            fail(f"a card reaches {widest} px on a 375 px screen")
        driver.save_screenshot(os.path.join(args.out, "page-375x812.png"))
        seat = ready_room(driver, bob, base, f"{args.room}-ready"[:16]) or (args.room, board, 1)
        reload_keeps_seat(driver, bob, *seat)
        set_viewport(driver, 1280, 800, False)
        reply_pairing(driver, base)
        print(f"PASS: ann claimed {claim}, bob claimed {bob_claim}; screenshots in {args.out}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
