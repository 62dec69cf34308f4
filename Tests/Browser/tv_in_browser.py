#!/usr/bin/env python3
"""The TV table (`/tv?room=fun`) in a real browser while players on raw sockets play; and the page's Invite.

Usage: tv_in_browser.py --port PORT [--host 127.0.0.1] [--out DIR] [--docs DIR]

Headless Chromium at 1920x1080 opens the TV table of a room nobody has made yet: it says so, shows the
code and the address to join, and asks again until ann (a plain TCP socket speaking protocol.md) makes
the room, which waits for READY. Bob joins; the TV's scoreboard lists them both, and shows the countdown
when they are ready, then the board card for card. Ann takes a set: the TV shows her score, the three
cards she took with her name, and rings the cards dealt in their place with her name. Bob asks for a new
game: the vote is in the strip. The TV's QR code, read from a screenshot by zbarimg, is the link that
joins the room. Ann then takes every set to the end: the TV shows the standings with each player's
sets. A Matchismo room on the TV shows its playing cards and the last move. Last, dave opens the page
and its Invite: the QR code (decoded by zbarimg from a screenshot) and the address to read aloud.
Screenshots go to --out (tv.png at 1920x1080, tv-over.png, tv-matchismo.png, page-invite.png); with
--docs the ones README shows are written there too.

Exit status: 0 passed, 1 failed (with the reason), 77 skipped because Chromium or selenium cannot start
here. Bounded: everything must finish within TOTAL_SECONDS.
"""

import argparse
import os
import shutil
import signal
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_in_browser import (  # noqa: E402  (the shared helpers of the first browser test)
    LinePlayer, board_of, fail, find_set, set_viewport, start_browser, wait_for)

TOTAL_SECONDS = 100


def player(host, port, name, room, extra=""):
    p = LinePlayer(host, port, name)
    _, final = p.request(f"HELLO {name}")
    if not final.startswith(f"OK HELLO {name} "):
        fail(f"HELLO {name}: {final}")
    if room:
        _, final = p.request(f"JOIN {room}{extra}")
        if not final.startswith(f"OK JOIN {room} "):
            fail(f"{name} JOIN {room}: {final}")
    return p


def text_of(driver, element_id):
    return driver.find_element("id", element_id).get_attribute("textContent")


def visible(driver, element_id):
    return driver.find_element("id", element_id).is_displayed()


def tv_board(driver):
    """The board the TV shows: {position: code}."""
    return driver.execute_script(
        "const b = {}; for (const e of document.querySelectorAll('#tv-board [data-card]')) b[e.dataset.pos] ="
        " e.dataset.card; return b;")


def tv_scores(driver):
    """The TV's scoreboard, top to bottom: [(name, score)]."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#tv-scores li')).map((li) =>"
        " [li.dataset.player, li.querySelector('.score').textContent]);")


def image_loaded(driver, element_id):
    return driver.execute_script(
        "const i = document.getElementById(arguments[0]); return i.complete && i.naturalWidth > 0;", element_id)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def shoot(driver, args, name, docs=False):
    """A screenshot into --out; with `docs`, README's copy into --docs too, without the note that a
    loopback address is out of the phones' reach (on a LAN address, as README shows, it is not there)."""
    path = os.path.join(args.out, name)
    driver.save_screenshot(path)
    if docs and args.docs:
        driver.execute_script("document.getElementById('tv-loopback').hidden = true;")
        driver.save_screenshot(os.path.join(args.docs, name))
        driver.execute_script("document.getElementById('tv-loopback').hidden = false;")
    return path


def decoded(path):
    """What zbarimg (Debian's zbar-tools) reads from the image: the QR codes' texts."""
    zbarimg = shutil.which("zbarimg")
    if not zbarimg:
        fail("zbarimg is not installed (Debian: apt-get install zbar-tools; .ci/run installs it)")
    result = subprocess.run([zbarimg, "-q", "--raw", "--nodbus", path], capture_output=True, timeout=30)
    if result.returncode not in (0, 4):
        fail(f"zbarimg failed on {path}: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode().split()


def play_to_the_end(ann, rev, board):
    """Ann takes a set on every board until the game is over; returns the OVER line. Each claim names the
    revision it was read from (without one, a position whose card changed in the last second is STALE,
    and on a loaded machine ann's next claim can come within that second)."""
    for _ in range(60):
        combo = find_set(board)
        if combo is None:
            fail(f"no set on a board of a game that is not over: {board}")
        lines, final = ann.request("CHOOSE " + " ".join(combo) + f" @{rev}")
        if not final.startswith("OK CHOOSE"):
            fail(f"ann's claim of {combo}: {final}")
        over = [line for line in lines if line.startswith("OVER ")]
        if over:
            return over[0]
        boards = [line for line in lines if line.startswith("BOARD ")]
        if not boards:
            fail(f"no BOARD after ann's set: {lines}")
        rev, board = board_of(boards[-1])
    fail("the game did not end in 60 sets")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--out", default=".")
    parser.add_argument("--docs", help="also write README's screenshots here")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: fail(f"the TV test took over {TOTAL_SECONDS} s"))
    signal.alarm(TOTAL_SECONDS)
    os.makedirs(args.out, exist_ok=True)
    origin = f"http://{args.host}:{args.port}"
    link = f"{origin}/?room=fun"

    driver = start_browser()
    try:
        set_viewport(driver, 1920, 1080, False)

        # A room nobody has made yet: the TV says so, and shows how to join, which makes it.
        driver.get(f"{origin}/tv?room=fun")
        wait_for(driver, "the notice of a room not made yet", lambda: "No room fun yet" in text_of(driver, "tv-notice"))
        wait_for(driver, "the QR code", lambda: image_loaded(driver, "tv-qr"))
        if text_of(driver, "tv-address") != f"{args.host}:{args.port}" or text_of(driver, "tv-join-room") != "room fun":
            fail(f"the TV's address reads {text_of(driver, 'tv-address')!r} {text_of(driver, 'tv-join-room')!r}")
        if not visible(driver, "tv-loopback"):
            fail("the TV at a loopback address does not say that phones cannot reach it")

        ann = player(args.host, args.port, "ann", "fun", " start=ready")
        wait_for(driver, "the waiting room (asked for again)",
                 lambda: not visible(driver, "tv-notice") and "starts when everyone is ready" in text_of(driver, "tv-strip"))
        bob = player(args.host, args.port, "bob", "fun")
        wait_for(driver, "ann and bob on the scoreboard", lambda: tv_scores(driver) == [["ann", "0"], ["bob", "0"]])

        # Ready: the countdown, then the deal, card for card.
        ann.request("READY")
        wait_for(driver, "1 of 2 ready", lambda: "1 of 2 ready" in text_of(driver, "tv-strip"))
        bob.request("READY")
        wait_for(driver, "the countdown", lambda: visible(driver, "tv-countdown")
                 and text_of(driver, "tv-countdown-n") in ("3", "2", "1"))
        while True:
            rev, board = board_of(ann.expect("BOARD ")[0])
            if board:
                break
        wait_for(driver, "the deal", lambda: tv_board(driver) == board and not visible(driver, "tv-countdown"))
        if "12 cards left" in text_of(driver, "tv-deck") or "cards left" not in text_of(driver, "tv-deck"):
            fail(f"the deck reads {text_of(driver, 'tv-deck')!r}")

        # Ann takes a set: her score, her cards with her name, and the ring where they were.
        combo = find_set(board)
        taken = [board[p] for p in combo]
        lines, final = ann.request("CHOOSE " + " ".join(combo) + f" @{rev}")
        if not final.startswith("OK CHOOSE"):
            fail(f"ann's claim: {final}")
        rev, board = board_of([line for line in lines if line.startswith("BOARD ")][-1])
        wait_for(driver, "ann's point, first on the scoreboard", lambda: tv_scores(driver) == [["ann", "1"], ["bob", "0"]])
        wait_for(driver, "the new board", lambda: tv_board(driver) == board)
        last = driver.execute_script(
            "const l = document.getElementById('tv-last'); return [l.dataset.takenBy, "
            " Array.from(l.querySelectorAll('[data-card]')).map((e) => e.dataset.card)];")
        if last != ["ann", taken] or "ann took the last set" not in text_of(driver, "tv-last-title"):
            fail(f"the last set reads {last} {text_of(driver, 'tv-last-title')!r}, not ann's {taken}")
        ringed = driver.execute_script(
            "return Array.from(document.querySelectorAll('#tv-board .card.taken')).map((e) =>"
            " [e.dataset.pos, e.dataset.takenBy, e.querySelector('.taken-by').textContent]);")
        if sorted(ringed) != sorted([p, "ann", "ann"] for p in combo):
            fail(f"the cards dealt where ann's set was are ringed at {ringed}, not {combo}")
        if "scored" not in driver.find_element("css selector", "#tv-scores li[data-player='ann']").get_attribute("class"):
            fail("ann's row is not marked as the last to score")

        # Bob asks for a new game: the vote is in the strip.
        bob.request("NEW")
        wait_for(driver, "the vote", lambda: "bob asks for a new game" in text_of(driver, "tv-strip")
                 and "1 of 2 votes" in text_of(driver, "tv-strip"))
        if "vote" not in driver.find_element("id", "tv-strip").get_attribute("class"):
            fail("the vote is not shown as one")

        # The screen as a TV shows it; its code, read by a real decoder, joins the room.
        path = shoot(driver, args, "tv.png", docs=True)
        if png_size(path) != (1920, 1080):
            fail(f"the screenshot is {png_size(path)}, not 1920x1080")
        if decoded(path) != [link]:
            fail(f"zbarimg read {decoded(path)} from the TV, not {link}")

        # Ann takes every set to the end: the standings, with each player's sets.
        over = play_to_the_end(ann, rev, board)
        ann_score = next(int(e.split(":")[1]) for e in over.split()[1:] if e.startswith("ann:"))
        wait_for(driver, "the end screen", lambda: visible(driver, "tv-over") and "ann wins" in text_of(driver, "tv-over-title"))
        wait_for(driver, "the standings with the score sheet", lambda: driver.execute_script(
            "return Array.from(document.querySelectorAll('#tv-standings li')).map((li) =>"
            " [li.dataset.player, li.querySelector('.score').textContent, !!li.querySelector('.stats')]);")
            == [["ann", str(ann_score), True], ["bob", "0", True]])
        stats = driver.find_element("css selector", "#tv-standings li[data-player='ann'] .stats").text
        if not stats.startswith(f"{ann_score} sets"):
            fail(f"ann's line of the score sheet reads {stats!r}")
        if not visible(driver, "tv-qr"):
            fail("the code to join is hidden by the end screen")
        shoot(driver, args, "tv-over.png", docs=True)

        # Matchismo on the TV: its playing cards, whose turn, and the last move.
        carl = player(args.host, args.port, "carl", "cards", " matchismo")
        driver.get(f"{origin}/tv?room=cards")
        wait_for(driver, "the Matchismo board", lambda: len(tv_board(driver)) == 30
                 and len(driver.find_elements("css selector", "#tv-board .card.playing.down")) == 30)
        if "Matchismo" not in text_of(driver, "tv-game") or "carl's turn" not in text_of(driver, "tv-deck"):
            fail(f"the Matchismo TV reads {text_of(driver, 'tv-game')!r} {text_of(driver, 'tv-deck')!r}")
        _, final = carl.request("CHOOSE a")
        wait_for(driver, "carl's move", lambda: visible(driver, "tv-last") and "carl: " in text_of(driver, "tv-last")
                 and not driver.find_elements("css selector", "#tv-board [data-pos='a'].down"))
        shoot(driver, args, "tv-matchismo.png")

        # The page's Invite: the room's code and the address to read aloud.
        driver.get(f"{origin}/?room=fun&name=dave")
        wait_for(driver, "dave at the table", lambda: visible(driver, "btn-invite") and "fun" in text_of(driver, "title"))
        driver.find_element("id", "btn-invite").click()
        wait_for(driver, "the Invite", lambda: visible(driver, "invite-dialog") and image_loaded(driver, "invite-qr"))
        if text_of(driver, "invite-address") != f"{args.host}:{args.port}" or text_of(driver, "invite-room") != "room fun":
            fail(f"Invite reads {text_of(driver, 'invite-address')!r} {text_of(driver, 'invite-room')!r}")
        href = driver.find_element("id", "invite-tv").get_attribute("href")
        if href != f"{origin}/tv?room=fun":
            fail(f"Invite's TV link is {href}")
        path = shoot(driver, args, "page-invite.png")
        if decoded(path) != [link]:
            fail(f"zbarimg read {decoded(path)} from the Invite, not {link}")
        print("PASS: the TV table watched the game, and its code and the Invite's join the room")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
