#!/usr/bin/env python3
"""The page makes and plays a timed practice game, pauses it and resumes it, against a live setd.

Usage: timed_in_browser.py --port PORT [--host 127.0.0.1] [--out DIR] [--url BASE]

Headless Chromium opens the lobby, chooses "First to 3 sets" and Practice, makes the room and starts it;
a spectator socket (WATCH) checks the room's options are `practice=on sets=3` and reads its board and
`CLOCK` lines (protocol.md). The page must show the clock with the target; Pause sends PAUSE (everyone
gets `CLOCK <ms> paused`), hides the cards and stops the clock, and the TV table shows the same paused
clock; Resume sends UNPAUSE. Then it takes three sets by clicking their cards (found by protocol.md's
rules, mode_rules.py) and the game is over at the third (first to 3). From the end, New game with "Most
sets in 1 minute" and Practice off starts a rated timed game whose clock counts down, with no Pause
button. Screenshots: DIR/page-timed.png (a running timed practice game), DIR/page-paused.png and
DIR/page-minutes.png (the countdown).

Exit status: 0 passed; 1 failed (the reason printed); 77 skipped because Chromium or selenium cannot
start here.
"""

import argparse
import os
import re
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mode_rules import Watcher, fail, find_claim  # noqa: E402
from play_in_browser import start_browser, set_viewport, wait_for, page_board  # noqa: E402

TOTAL_SECONDS = 100


def text_of(driver, element_id):
    return driver.find_element("id", element_id).text


def shown(driver, element_id):
    return driver.find_element("id", element_id).is_displayed()


def clock_seconds(text):
    """The `m:ss` at the start of the page's clock, in seconds."""
    m = re.match(r"(\d+):(\d\d)", text)
    if not m:
        fail(f"the clock says {text!r}, with no m:ss")
    return int(m.group(1)) * 60 + int(m.group(2))


def click_card(driver, pos):
    """Clicks the card at `pos`, finding it again if the board was drawn anew in between (How to play's
    example ring ends with a redraw); a stale element was never clicked, so nothing is picked twice."""
    from selenium.common.exceptions import StaleElementReferenceException
    for _ in range(5):
        try:
            driver.find_element("css selector", f"#board [data-pos='{pos}']").click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    fail(f"the card at {pos} kept being redrawn")


def pump_until(watcher, what, condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            fail(f"the spectator did not see {what} within {seconds} s; last lines {watcher.lines[-8:]}")
        watcher.pump(0.2)


def start_room(driver, watcher_room, args):
    wait_for(driver, "Start now", lambda: shown(driver, "btn-start"))
    watcher = Watcher(args.host, args.port, watcher_room)
    driver.find_element("id", "btn-start").click()
    wait_for(driver, "the board", lambda: len(page_board(driver)) > 0, seconds=15)
    watcher.pump(0.5)
    return watcher


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--out", default=".")
    parser.add_argument("--url")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: fail(f"the browser test took over {TOTAL_SECONDS} s"))
    signal.alarm(TOTAL_SECONDS)
    os.makedirs(args.out, exist_ok=True)
    base = args.url or f"http://{args.host}:{args.port}/"
    driver = start_browser()
    try:
        set_viewport(driver, 1280, 800, False)
        room = f"timed{os.getpid() % 1000}"
        name = f"tp{os.getpid() % 1000}"
        driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": base.rstrip("/"), "storageTypes": "local_storage"})
        driver.get(f"{base}?name={name}")

        # The lobby: first to 3 sets, practice.
        wait_for(driver, "the lobby", lambda: shown(driver, "room-input"))
        labels = driver.execute_script("return [...document.getElementById('timing-select').options].map(o => o.text)")
        for wanted in ("Play the whole deck", "First to 3 sets", "Most sets in 1 minute"):
            if wanted not in labels:
                fail(f"the lobby's timing choices {labels} lack {wanted!r}")
        driver.find_element("id", "room-input").send_keys(room)
        driver.execute_script("const s = document.getElementById('timing-select'); s.value = 'sets=3';")
        driver.find_element("id", "practice-input").click()
        driver.find_element("css selector", "#join-form button[type=submit]").click()
        watcher = start_room(driver, room, args)
        options = next((l for l in watcher.lines if l.startswith("OPTIONS ")), "")
        if "practice=on" not in options.split() or "sets=3" not in options.split():
            fail(f"the room was made with {options!r}, not practice=on sets=3")
        if not any(l.startswith("CLOCK ") and l.endswith(" running") for l in watcher.lines):
            fail(f"a practice game's snapshot has no running CLOCK: {watcher.lines}")

        # The clock and the target; practice in the title; Pause.
        wait_for(driver, "the clock with the target",
                 lambda: shown(driver, "clock") and re.fullmatch(r"0:\d\d · first to 3 sets", text_of(driver, "clock")))
        if "practice" not in text_of(driver, "title"):
            fail(f"the title {text_of(driver, 'title')!r} does not say practice")
        wait_for(driver, "the Pause button", lambda: shown(driver, "btn-pause") and text_of(driver, "btn-pause") == "Pause")
        time.sleep(1.1)  # a second of play on the clock before the pause
        if "goes on" in text_of(driver, "log") or "paused" in text_of(driver, "log"):
            fail(f"the deal's CLOCK line was news in the log: {text_of(driver, 'log')!r}")
        driver.find_element("id", "btn-pause").click()
        pump_until(watcher, "CLOCK … paused", lambda: watcher.lines[-1].startswith("CLOCK ") and watcher.lines[-1].endswith(" paused"))
        wait_for(driver, "the paused board", lambda: shown(driver, "paused") and not shown(driver, "board"))
        wait_for(driver, "the clock saying paused", lambda: "paused" in text_of(driver, "clock"))
        if text_of(driver, "btn-pause") != "Resume":
            fail(f"the Pause button says {text_of(driver, 'btn-pause')!r} while paused")
        stood = text_of(driver, "clock")
        driver.save_screenshot(os.path.join(args.out, "page-paused.png"))
        time.sleep(2.2)
        if text_of(driver, "clock") != stood:
            fail(f"the clock moved while paused: {stood!r} then {text_of(driver, 'clock')!r}")
        paused_ms = int(next(l for l in reversed(watcher.lines) if l.startswith("CLOCK ")).split()[1])
        if clock_seconds(stood) != paused_ms // 1000:
            fail(f"the page's paused clock {stood!r} is not the server's {paused_ms} ms of play")
        # The TV table shows the same clock, from the same CLOCK line.
        page = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(f"{base.rstrip('/')}/tv?room={room}")
        wait_for(driver, "the TV's paused clock", lambda: text_of(driver, "tv-clock") == stood)
        driver.close()
        driver.switch_to.window(page)

        # Resume: everyone gets CLOCK … running, the cards come back.
        driver.find_element("id", "btn-resume").click()
        pump_until(watcher, "CLOCK … running", lambda: watcher.lines[-1].startswith("CLOCK ") and watcher.lines[-1].endswith(" running"))
        wait_for(driver, "the board back", lambda: shown(driver, "board") and not shown(driver, "paused"))
        wait_for(driver, "the log's pause and go on", lambda: re.search(
            r"The game is paused\.\s+The game goes on\.", text_of(driver, "log")))
        wait_for(driver, "Pause again", lambda: text_of(driver, "btn-pause") == "Pause")
        if clock_seconds(text_of(driver, "clock")) > paused_ms // 1000 + 2:
            fail(f"after the pause the clock says {text_of(driver, 'clock')!r}: the pause was counted")

        # How to play says how this game ends, and rings a set of the board for 6 s (HINT_SHOW_MS).
        wait_for(driver, "the page's board to match the server's", lambda: page_board(driver) == watcher.board)
        driver.find_element("id", "btn-rules").click()
        rules_opened = time.monotonic()
        wait_for(driver, "How to play", lambda: shown(driver, "rules-dialog"))
        rules = text_of(driver, "rules-body")
        if "This game ends as soon as a player has 3 sets" not in rules or "Practice: the game is unrated" not in rules:
            fail(f"How to play does not say how this game ends or what practice is: {rules!r}")
        driver.find_element("id", "rules-close").click()
        ringed = driver.execute_script("return [...document.querySelectorAll('#board .card.example')].map(e => e.dataset.pos)")

        # First to 3 sets: the third set ends the game.
        taken = 0
        while not watcher.over:
            if taken >= 3:
                pump_until(watcher, "OVER after the third set", lambda: watcher.over, seconds=5)
                break
            claim = find_claim("shuffle", watcher.board, [], [])
            # mode_rules.py's rule of three (shuffle's is normal SET's); None: the server deals three more next
            if claim is None:
                pump_until(watcher, "three more cards on a board without a set",
                           lambda: find_claim("shuffle", watcher.board, [], []) is not None)
                continue
            wait_for(driver, "the page's board to match the server's", lambda: page_board(driver) == watcher.board)
            for pos in claim:
                click_card(driver, pos)
            before = len(watcher.taken)
            pump_until(watcher, f"the set {claim} taken", lambda: len(watcher.taken) > before or watcher.over)
            taken = len(watcher.taken)
            if taken == 1:
                # The claim took the ringed set (both are the first set in board order): the ring must not stay
                # on the cards dealt in its place, which are no set.
                wait_for(driver, "the new cards", lambda: page_board(driver) == watcher.board)
                still = driver.execute_script(
                    "return [...document.querySelectorAll('#board .card.example')].map(e => e.dataset.pos)")
                if time.monotonic() - rules_opened < 5.5 and sorted(claim) == sorted(ringed) and still:
                    fail(f"How to play's ring stayed on {still}, the cards dealt where its set was taken")
                wait_for(driver, "the score of 1", lambda: driver.execute_script(
                    "return document.querySelector(`#scores li[data-player='${arguments[0]}'] .score`).textContent",
                    name) == "1")
                driver.save_screenshot(os.path.join(args.out, "page-timed.png"))
        if len(watcher.taken) != 3:
            fail(f"the first-to-3 game ended after {len(watcher.taken)} sets")
        wait_for(driver, "the game over", lambda: shown(driver, "over-dialog"))
        title = driver.execute_script("return document.getElementById('over-title').textContent")
        if title != "First to 3 sets. You won!":
            fail(f"the game over says {title!r}, not how the game ended")
        wait_for(driver, "the clock gone at the end", lambda: not shown(driver, "clock"))

        # A new game, timed by minutes and rated: NEW minutes=1 sets=off practice=off.
        driver.find_element("id", "btn-close-over").click()
        driver.execute_script("const s = document.getElementById('new-timing'); s.value = 'minutes=1';")
        driver.find_element("id", "new-practice").click()
        before = len(watcher.lines)
        driver.find_element("id", "btn-new").click()
        pump_until(watcher, "the new game's options",
                   lambda: any(l.startswith("OPTIONS ") for l in watcher.lines[before:]))
        options = next(l for l in watcher.lines[before:] if l.startswith("OPTIONS ")).split()
        if "minutes=1" not in options or "practice=on" in options or any(o.startswith("sets=") for o in options):
            fail(f"New game with 1 minute and no practice made {options}")
        if shown(driver, "btn-start"):
            driver.find_element("id", "btn-start").click()
        wait_for(driver, "the countdown clock",
                 lambda: shown(driver, "clock") and re.fullmatch(r"[01]:\d\d left", text_of(driver, "clock")), seconds=15)
        first = clock_seconds(text_of(driver, "clock"))
        time.sleep(2.2)
        second = clock_seconds(text_of(driver, "clock"))
        if not (first - 4 <= second < first) or first > 60:
            fail(f"a 1-minute game's clock went from {first} s left to {second} s left")
        if shown(driver, "btn-pause"):
            fail("a rated game shows Pause")
        driver.save_screenshot(os.path.join(args.out, "page-minutes.png"))
        if "practice" in text_of(driver, "title"):
            fail(f"the title still says practice: {text_of(driver, 'title')!r}")
        print(f"PASS: first to 3 over after 3 sets, paused at {paused_ms} ms, a 1-minute game counts down {first}→{second} s")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
