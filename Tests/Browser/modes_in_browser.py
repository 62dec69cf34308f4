#!/usr/bin/env python3
"""The page plays every later SET mode to the end against a live setd.

Usage: modes_in_browser.py --port PORT [--host 127.0.0.1] [--modes 4set,megaset,...] [--out DIR] [--url BASE]

For each mode, headless Chromium opens the lobby, picks the mode in the Game list, makes the room and
starts it with "Start now"; a spectator socket (WATCH) reads the board and the events, and this script
finds a claim by protocol.md's rules (mode_rules.py, written on their own) and clicks its cards on the
page — the chain's cards in ultrachain — until the room says OVER and the page shows the game over. Memory's
face-down cards are learnt from the WRONG lines, as a player would remember them. A screenshot of each
mode mid-game goes to DIR/play-<mode>.png.

Exit status: 0 every mode reached OVER on the page; 1 a mode did not (the reason printed); 77 skipped
because Chromium or selenium cannot start here.
"""

import argparse
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mode_rules import MODES, Watcher, fail, play_to_the_end  # noqa: E402
from play_in_browser import start_browser, set_viewport, wait_for, page_board  # noqa: E402

TOTAL_SECONDS = 900


def play(driver, base, mode, args):
    # A room and a name of their own each run: an old room keeps its game, an old name its seat.
    room = f"p{mode}-{os.getpid() % 1000}"
    name = f"p{os.getpid() % 1000}-{mode}"
    # A fresh page: no token kept from a run before, which would take the seat back instead of the lobby.
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": base.rstrip("/"), "storageTypes": "local_storage"})
    driver.get(f"{base}?name={name}")
    wait_for(driver, "the lobby", lambda: driver.find_element("id", "room-input").is_displayed())
    driver.find_element("id", "room-input").send_keys(room)
    driver.execute_script("document.getElementById('game-select').value = arguments[0]", mode)
    driver.find_element("css selector", "#join-form button[type=submit]").click()
    wait_for(driver, f"the {mode} room's Start now", lambda: driver.find_element("id", "btn-start").is_displayed())
    watcher = Watcher(args.host, args.port, room)
    driver.find_element("id", "btn-start").click()
    wait_for(driver, f"the {mode} board", lambda: len(page_board(driver)) > 0, seconds=15)
    watcher.pump(0.5)
    shot = {"taken": False}

    def send(claim):
        wait_for(driver, "the page's board to match the server's",
                 lambda: page_board(driver) == watcher.board and driver.execute_script(
                     "return !document.querySelector('#board .card.claiming')"))
        # Puzzle: the page shows what the last FOUND line said before the next claim.
        if mode == "puzzle" and watcher.lines and any(l.startswith("FOUND ") for l in watcher.lines):
            last = next(l for l in reversed(watcher.lines) if l.startswith("FOUND ")).split()
            wanted = f"Found {last[1]} of {last[2]} sets on this board"
            wait_for(driver, f"puzzle's {wanted!r} (the page says "
                     f"{driver.find_element('id', 'found-count').text!r}; lines {watcher.lines[-6:]})",
                     lambda: driver.find_element("id", "found-count").text == wanted)
        for pick in claim:
            if pick.isdigit():  # a chain card, by its number
                driver.find_element("css selector", f"#chain-cards [data-chain='{pick}']").click()
            else:
                driver.find_element("css selector", f"#board [data-pos='{pick}']").click()
        if not shot["taken"] and len(watcher.taken) >= 2:
            shot["taken"] = True
            driver.save_screenshot(os.path.join(args.out, f"play-{mode}.png"))

    def screen():
        return "the page's strip says " + repr(driver.find_element("id", "strip").text)

    claims, wrong = play_to_the_end(mode, watcher, send, screen)
    wait_for(driver, "the page's game over", lambda: driver.find_element("id", "over-dialog").is_displayed())
    score = driver.execute_script(
        "return document.querySelector(`#scores li[data-player='${arguments[0]}'] .score`).textContent", name)
    if int(score) != len(watcher.taken) - wrong:
        fail(f"{mode}: the page shows a score of {score} after {len(watcher.taken)} sets and {wrong} wrong claims")
    print(f"{mode}: OVER on the page after {claims} claims ({wrong} wrong), {len(watcher.taken)} taken, score {score}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--modes", default=",".join(MODES))
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
        for mode in args.modes.split(","):
            play(driver, base, mode, args)
        print("PASS")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
