#!/usr/bin/env python3
"""A real game played over raw sockets, then watched again in the replay viewer (`/replay/<id>`).

Usage: replay_in_browser.py --port PORT [--host 127.0.0.1] [--out DIR] [--docs DIR]

Ann and bob (plain TCP sockets speaking protocol.md) play a whole SET game in room "replay", taking
turns at the sets, bob with one wrong claim, while headless Chromium watches the room from the page
(`?room=replay&watch=1`): at the end its Game over dialog links to the replay, `/replay/<id>`, the id
HISTORY names. The viewer opens on the deal; its board is checked card for card against boards rebuilt
here from the record (`RECORD <id>`) by protocol.md's rules at the first set, at a step opened by link
(`#k`), at a step picked on the timeline, after a step back with the ← key and at the end; at a set it
rings the set's cards, says who took it and how fast, and lists the sets that left the board untaken;
Play moves on by itself. A screenshot (1280x800) goes to --out as replay.png, and to --docs with --docs.

Exit status: 0 passed, 1 failed (with the reason), 77 skipped because Chromium or selenium cannot start
here. Bounded: everything must finish within TOTAL_SECONDS.
"""

import argparse
import itertools
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_in_browser import (  # noqa: E402  (the shared helpers of the first browser test)
    LinePlayer, board_of, fail, find_set, is_set, set_viewport, start_browser, wait_for)

TOTAL_SECONDS = 100
ROOM = "replay"


def player(host, port, name, extra=""):
    p = LinePlayer(host, port, name)
    _, final = p.request(f"HELLO {name}")
    if not final.startswith(f"OK HELLO {name} "):
        fail(f"HELLO {name}: {final}")
    _, final = p.request(f"JOIN {ROOM}{extra}")
    if not final.startswith(f"OK JOIN {ROOM} "):
        fail(f"{name} JOIN {ROOM}: {final}")
    return p


def play_game(ann, bob, board, rev):
    """Ann and bob take sets in turn until the game is over (bob claims three cards that are no set
    once); a pause between sets gives each a time of its own. Returns the OVER line."""
    wrong_done = False
    for n in range(60):
        who = ann if n % 3 != 1 else bob
        if who is bob and not wrong_done:
            positions = sorted(board)
            bad = next(c for c in itertools.combinations(positions, 3) if not is_set([board[p] for p in c]))
            _, final = bob.request("CHOOSE " + " ".join(bad) + f" @{rev}")
            if not final.startswith("ERR CHOOSE"):
                fail(f"bob's wrong claim was {final}")
            wrong_done = True
        combo = find_set(board)
        if combo is None:
            fail(f"no set on a board of a game that is not over: {board}")
        time.sleep(0.12 + 0.03 * (n % 5))
        lines, final = who.request("CHOOSE " + " ".join(combo) + f" @{rev}")
        if not final.startswith("OK CHOOSE"):
            fail(f"{who.name}'s claim of {combo}: {final}")
        over = [line for line in lines if line.startswith("OVER ")]
        if over:
            return over[0]
        boards = [line for line in lines if line.startswith("BOARD ")]
        if not boards:
            fail(f"no BOARD after {who.name}'s set: {lines}")
        rev, board = board_of(boards[-1])
    fail("the game did not end in 60 sets")


# ---- the record rebuilt by protocol.md's rules ("RECORD": the board after each set) ----

def all_sets(board):
    return [list(c) for c in itertools.combinations(board, 3) if is_set(list(c))]


def rebuilt_steps(record):
    """The viewer's steps as (kind, board at that moment, event): the deal, each claim, the end."""
    deck = list(record["deck"])
    board, rest = deck[:12], deck[12:]

    def deal():
        nonlocal board, rest
        while not all_sets(board) and rest:
            board, rest = board + rest[:3], rest[3:]

    deal()
    steps = [("deal", list(board), None)]
    for event in record["events"]:
        if event["type"] == "claim":
            steps.append(("claim", list(board), event))
            if event["result"] == "set":
                holes = sorted(board.index(c) for c in event["cards"])
                slots = list(board)
                kept = len(board) - 3
                for hole in holes:
                    slots[hole] = rest.pop(0) if kept < 12 and rest else None
                while None in slots:
                    last = slots.pop()
                    if last is not None and None in slots:
                        slots[slots.index(None)] = last
                board = slots
                deal()
        elif event["type"] == "over":
            steps.append(("over", list(board), event))
    return steps


# ---- the viewer ----

def viewer_board(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#board [data-card]')).map((e) => e.dataset.card);")


def viewer_step(driver):
    return driver.execute_script("return document.getElementById('replay').dataset.step;")


def text_of(driver, element_id):
    return driver.find_element("id", element_id).get_attribute("textContent")


def expect_step(driver, steps, k, what):
    """The viewer shows step k: its number, and its board card for card in its order."""
    wait_for(driver, f"step {k} ({what})", lambda: viewer_step(driver) == str(k) and viewer_board(driver) == steps[k][1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--out", default=".")
    parser.add_argument("--docs", help="also write README's screenshot here")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: fail(f"the replay test took over {TOTAL_SECONDS} s"))
    signal.alarm(TOTAL_SECONDS)
    os.makedirs(args.out, exist_ok=True)
    origin = f"http://{args.host}:{args.port}"

    driver = start_browser()
    try:
        set_viewport(driver, 1280, 800, False)
        ann = player(args.host, args.port, "ann", " start=ready")
        bob = player(args.host, args.port, "bob")
        driver.get(f"{origin}/?room={ROOM}&watch=1")
        wait_for(driver, "the room watched", lambda: "ann" in driver.find_element("id", "scores").text)
        ann.request("READY")
        bob.request("READY")
        while True:
            rev, board = board_of(ann.expect("BOARD ")[0])
            if board:
                break
        over = play_game(ann, bob, board, rev)

        # The id: HISTORY's newest game, and the link on the watcher's Game over dialog.
        lines, _ = ann.request("HISTORY")
        ids = [line.split()[4] for line in lines if line.startswith("HISTORY GAME ") and line.split()[3] == "ID"]
        if not ids:
            fail(f"HISTORY names no record: {lines}")
        game_id = ids[0]
        link = driver.find_element("id", "over-replay")
        wait_for(driver, "the Game over dialog's link to the replay",
                 lambda: link.is_displayed() and link.get_attribute("href") == f"{origin}/replay/{game_id}")
        _, final = ann.request(f"RECORD {game_id}")
        if not final.startswith("OK RECORD "):
            fail(f"RECORD {game_id}: {final}")
        record = json.loads(final[len("OK RECORD "):])
        steps = rebuilt_steps(record)
        set_steps = [k for k, (kind, _, e) in enumerate(steps) if kind == "claim" and e["result"] == "set"]
        wrong_steps = [k for k, (kind, _, e) in enumerate(steps) if kind == "claim" and e["result"] == "wrong"]
        if len(set_steps) < 20 or len(wrong_steps) != 1 or steps[-1][0] != "over":
            fail(f"the record has {len(set_steps)} sets and {len(wrong_steps)} wrong claims: {over} {record['events']}")

        # The viewer opens on the deal.
        driver.get(f"{origin}/replay/{game_id}")
        expect_step(driver, steps, 0, "the deal")
        if "The deal" not in text_of(driver, "caption-text"):
            fail(f"the deal's caption reads {text_of(driver, 'caption-text')!r}")

        # Next until the first set: its cards ringed, who and how fast, and the sets it took away.
        for k in range(1, set_steps[0] + 1):
            driver.find_element("id", "btn-next").click()
            expect_step(driver, steps, k, "a step forward")
        first = steps[set_steps[0]][2]
        ringed = driver.execute_script(
            "return Array.from(document.querySelectorAll('#board .taken-card')).map((e) => e.dataset.card);")
        if sorted(ringed) != sorted(first["cards"]):
            fail(f"the first set's cards are ringed at {ringed}, not {first['cards']}")
        caption = text_of(driver, "caption-text")
        seconds = f"{first['ms'] / 1000:.1f} s"
        if f"{first['name']} took a set in " not in caption:
            fail(f"the first set's caption reads {caption!r}, not {first['name']} … {seconds}")

        # A step opened by link, one set with missed sets, with the score so far.
        def missed_at(k):
            _, before, event = steps[k]
            return [s for s in all_sets(before) if sorted(s) != sorted(event["cards"])
                    and any(c in event["cards"] for c in s)]
        shot = next((k for k in set_steps[2:] if missed_at(k)), set_steps[len(set_steps) // 2])
        driver.get(f"{origin}/replay/{game_id}#{shot}")
        expect_step(driver, steps, shot, "opened by link")
        shown = driver.execute_script("return document.querySelectorAll('#missed li').length;")
        if shown != len(missed_at(shot)):
            fail(f"step {shot} lists {shown} missed sets, not {len(missed_at(shot))}: {missed_at(shot)}")
        expected_ann = sum(1 for k in set_steps if k <= shot and steps[k][2]["name"] == "ann")
        ann_row = driver.find_element("css selector", "#scores li[data-player='ann'] .score").text
        if ann_row != str(expected_ann):
            fail(f"ann's score at step {shot} reads {ann_row}, not {expected_ann}")
        if shown:
            driver.find_element("css selector", "#missed li button").click()
            wait_for(driver, "a missed set ringed on the board",
                     lambda: driver.execute_script("return document.querySelectorAll('#board .spot').length;") == 3)
        path = os.path.join(args.out, "replay.png")
        driver.save_screenshot(path)
        if args.docs:
            driver.save_screenshot(os.path.join(args.docs, "replay.png"))

        # A step back with the ← key; the wrong claim picked on the timeline; Play; the end.
        driver.find_element("css selector", "body").send_keys("\ue012")  # Keys.ARROW_LEFT
        expect_step(driver, steps, shot - 1, "a step back")
        driver.find_element("css selector", f".tick[data-step='{wrong_steps[0]}']").click()
        expect_step(driver, steps, wrong_steps[0], "the wrong claim, from the timeline")
        if "bob: not a set" not in text_of(driver, "caption-text"):
            fail(f"the wrong claim's caption reads {text_of(driver, 'caption-text')!r}")
        if not driver.current_url.endswith(f"#{wrong_steps[0]}"):
            fail(f"the address does not hold the step: {driver.current_url}")
        driver.find_element("id", "btn-play").click()
        wait_for(driver, "Play to move on by itself", lambda: int(viewer_step(driver)) >= wrong_steps[0] + 2, seconds=8)
        driver.find_element("id", "btn-play").click()
        driver.find_element("id", "btn-last").click()
        expect_step(driver, steps, len(steps) - 1, "the end")
        if all_sets(steps[-1][1]) or "Game over" not in text_of(driver, "caption-text"):
            fail(f"the end shows {steps[-1][1]} and {text_of(driver, 'caption-text')!r}")

        # An id no game has.
        driver.get(f"{origin}/replay/0000000000000000")
        wait_for(driver, "the unknown game's notice", lambda: "No kept public game" in text_of(driver, "problem"))
        print(f"PASS: {len(steps)} steps of game {game_id} replayed; screenshot {path}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
