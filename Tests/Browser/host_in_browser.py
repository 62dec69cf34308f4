#!/usr/bin/env python3
"""A whole night hosted from setd's page in headless Chromium, beside players on raw sockets (issue 24).

Usage: host_in_browser.py --port PORT [--host 127.0.0.1] [--out DIR] [--docs DIR]

A spectator link (?room=…&watch=1) shows the room without asking for a name. Ann, on the page, makes a
room that waits for READY; bob, carl and dave are nc-style players. Ann removes bob from his row's menu,
with a reason bob and the room see; locks the room (dave is refused) and unlocks it; says ready and
takes it back; starts the game from the room menu; the strip above the board says who took a set and
what carl's vote is for without moving a card; the Agree button agrees with carl's proposal; How to play
explains a set drawn from the board; typed letters claim a set; a sound plays when a set is taken (when
turned on); leaving asks first; stats, best players and history open as lists; the score sheet rounds
times as set-cli does. On a phone, the first visit shows tips, the board keeps set-cli's letter order
(a, b, c down the first column), and a chat that arrives below the fold shows a badge.

Screenshots go to --out; with --docs the ones README shows are written there too.
Exit status: 0 passed, 1 failed (with the reason), 77 skipped because Chromium or selenium cannot start.
"""

import argparse
import os
import re
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_in_browser import (  # noqa: E402  (the shared helpers of the first browser test)
    LinePlayer, board_of, close_tips, fail, find_set, page_board, page_score, set_viewport, start_browser,
    wait_for)

TOTAL_SECONDS = 100


def text_of(driver, element_id):
    """The element's text as the page wrote it (headings are shown in capitals)."""
    return driver.find_element("id", element_id).get_attribute("textContent")


def click(driver, element_id):
    driver.find_element("id", element_id).click()


def visible(driver, element_id):
    return driver.find_element("id", element_id).is_displayed()


def card_rect(driver, position):
    return driver.execute_script(
        "const e = document.querySelector(`#board [data-pos='${arguments[0]}']`);"
        " if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
        position)


def letters_run_down_columns(driver):
    """a, b, c are one column, top to bottom, and d starts the next column: set-cli's order."""
    a, b, c, d = (card_rect(driver, p) for p in "abcd")
    return (abs(a[0] - b[0]) < 2 and abs(b[0] - c[0]) < 2 and a[1] < b[1] < c[1]
            and d[0] > a[0] + a[2] / 2 and abs(d[1] - a[1]) < 2)


def format_seconds(ms):
    """set-cli's GameNight.seconds: the nearest tenth, halves up."""
    tenths = ms // 100 + (1 if ms % 100 >= 50 else 0)
    return f"{tenths // 10}.{tenths % 10} s"


def dealt_board(p):
    """The next BOARD line with cards on it (a waiting room's snapshot has an empty one)."""
    while True:
        rev, board = board_of(p.expect("BOARD ")[0])
        if board:
            return rev, board


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


def shoot(driver, args, name):
    driver.save_screenshot(os.path.join(args.out, name))
    if args.docs:
        driver.save_screenshot(os.path.join(args.docs, name))


def spectator_link_needs_no_name(driver, base, bob):
    """A fresh browser (nothing remembered) opens a spectator link: the room, no name asked."""
    _, final = bob.request("JOIN lookon")
    if not final.startswith("OK JOIN lookon "):
        fail(f"bob JOIN lookon: {final}")
    driver.get(f"{base}?room=lookon&watch=1")
    wait_for(driver, "the watched room", lambda: "watching" in text_of(driver, "title") and page_board(driver))
    if visible(driver, "name-dialog"):
        fail("a spectator link asked for a name")
    if not visible(driver, "btn-sit"):
        fail("a spectator has no way to sit down")
    bob.request("LEAVE")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--out", default=".")
    parser.add_argument("--docs", help="also write README's screenshots here")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: fail(f"the host test took over {TOTAL_SECONDS} s"))
    signal.alarm(TOTAL_SECONDS)
    os.makedirs(args.out, exist_ok=True)
    base = f"http://{args.host}:{args.port}/"

    bob = player(args.host, args.port, "bob", None)
    driver = start_browser()
    try:
        set_viewport(driver, 1280, 800, False)
        spectator_link_needs_no_name(driver, base, bob)

        # Ann makes room "night" from the page: it waits for READY, and she is its host.
        driver.get(f"{base}?room=night&name=ann")
        wait_for(driver, "ann's waiting room", lambda: visible(driver, "waiting") and visible(driver, "btn-ready"))
        _, final = bob.request("JOIN night")
        carl = player(args.host, args.port, "carl", "night")
        wait_for(driver, "bob and carl on the scoreboard",
                 lambda: page_score(driver, "bob") and page_score(driver, "carl"))

        # Bob is removed from his row's menu: two taps and a confirmation, with a reason everyone sees.
        driver.find_element("css selector", "#scores [data-actions='bob']").click()
        wait_for(driver, "bob's menu", lambda: visible(driver, "player-kick"))
        click(driver, "player-kick")
        wait_for(driver, "the confirmation", lambda: visible(driver, "confirm-dialog") and visible(driver, "confirm-label"))
        driver.find_element("id", "confirm-input").send_keys("spamming the chat")
        shoot(driver, args, "page-kick.png")
        click(driver, "confirm-ok")
        line, _ = bob.expect("KICKED ")
        if line != "KICKED bob ann spamming the chat":
            fail(f"bob read {line!r}")
        wait_for(driver, "the kick in the events",
                 lambda: "removed bob: spamming the chat" in text_of(driver, "log"))
        if page_score(driver, "bob"):
            fail("bob is still on the scoreboard")
        # The kick holds bob's name (and address) for 10 minutes.
        _, final = bob.request("JOIN night")
        if not (final.startswith("ERR JOIN DENIED") and "10 min" in final):
            fail(f"bob came straight back: {final}")

        # The room menu: lock (dave is refused), unlock.
        click(driver, "btn-menu")
        wait_for(driver, "the host's menu", lambda: visible(driver, "menu-lock"))
        shoot(driver, args, "page-room-menu.png")
        click(driver, "menu-lock")
        carl.expect("LOCKED ann")
        dave = player(args.host, args.port, "dave", None)
        _, final = dave.request("JOIN night")
        if not final.startswith("ERR JOIN LOCKED"):
            fail(f"dave joined a locked room: {final}")
        wait_for(driver, "the locked room in the title", lambda: "locked" in text_of(driver, "title"))
        click(driver, "btn-menu")
        wait_for(driver, "Unlock in the menu", lambda: visible(driver, "menu-unlock"))
        click(driver, "menu-unlock")
        carl.expect("UNLOCKED ann")

        # Ready, and not after all.
        click(driver, "btn-ready")
        carl.expect("READY ann 1 2")
        wait_for(driver, "Not ready yet", lambda: visible(driver, "btn-unready"))
        click(driver, "btn-unready")
        carl.expect("UNREADY ann 0 2")

        # The host starts the game from the menu.
        click(driver, "btn-menu")
        wait_for(driver, "Start in the menu", lambda: visible(driver, "menu-start"))
        click(driver, "menu-start")
        carl.expect("COUNTDOWN 3")
        rev, board = dealt_board(carl)
        started = int(carl.expect("STARTED ")[0].split()[1])
        wait_for(driver, "the deal", lambda: page_board(driver) == board and not visible(driver, "countdown"))
        if not letters_run_down_columns(driver):
            fail("the letters do not run down columns on a laptop")
        wait_for(driver, "the game clock", lambda: re.search(r"cards left · \d+:\d\d", text_of(driver, "deck")))

        # How to play shows a set from this very board, feature by feature.
        click(driver, "btn-rules")
        wait_for(driver, "How to play", lambda: visible(driver, "rules-dialog"))
        rules = text_of(driver, "rules-body")
        shown = re.search(r"on your board \(([a-z]), ([a-z]), ([a-z])\)", rules)
        if not shown:
            fail(f"How to play shows no example from the board: {rules!r}")
        example = [board[p] for p in shown.groups()]
        if find_set({p: board[p] for p in shown.groups()}) is None:
            fail(f"the example {example} is not a set")
        for feature in ("Number:", "Colour:", "Fill:", "Shape:"):
            if feature not in rules:
                fail(f"How to play does not explain {feature} {rules!r}")
        shoot(driver, args, "page-how-to-play.png")
        click(driver, "rules-close")

        # Sound on; a set typed on the keyboard is claimed and beeps.
        click(driver, "btn-menu")
        wait_for(driver, "the menu", lambda: visible(driver, "menu-sound"))
        click(driver, "menu-sound")
        click(driver, "menu-close")
        beeps = int(driver.execute_script("return document.body.dataset.beeps || '0'"))
        claim = find_set(board)
        driver.find_element("css selector", "body").send_keys("".join(claim))
        line, _ = carl.expect("SET ann ")
        wait_for(driver, "ann's point", lambda: (page_score(driver, "ann") or "").startswith("1 "))
        wait_for(driver, "a beep", lambda: int(driver.execute_script("return document.body.dataset.beeps || '0'")) > beeps)

        # Carl takes a set: the strip says so, and no card moves.
        rev, board = dealt_board(carl)
        wait_for(driver, "the board after ann's set", lambda: page_board(driver) == board)
        before = card_rect(driver, "a")
        _, final = carl.request(f"CHOOSE {' '.join(find_set(board))} @{rev}")
        wait_for(driver, "carl's set in the strip", lambda: "carl took a set" in text_of(driver, "strip"))
        if card_rect(driver, "a")[:2] != before[:2]:
            fail(f"the news moved the cards: card a was at {before}, now {card_rect(driver, 'a')}")

        # Carl asks for junior: the strip says what and who; Agree is a bare NEW, which agrees.
        _, final = carl.request("NEW mode=junior")
        if final != "OK NEW voted 1/2":
            fail(f"carl's vote: {final}")
        wait_for(driver, "the vote in the strip",
                 lambda: "carl asks for a new game (SET junior): 1 of 2 votes — carl" in text_of(driver, "strip")
                 and visible(driver, "btn-vote"))
        if card_rect(driver, "a")[:2] != before[:2]:
            fail("the vote moved the cards")
        shoot(driver, args, "page-vote.png")
        click(driver, "btn-vote")
        carl.expect("NEWGAME ann")
        options, _ = carl.expect("OPTIONS ")
        if "mode=junior" not in options:
            fail(f"the agreed game is not junior: {options}")
        wait_for(driver, "the junior room waiting", lambda: visible(driver, "waiting") and "junior" in text_of(driver, "title"))

        # Lists: stats, best players, history.
        for item, title in (("menu-stats", "Stats of ann"), ("menu-top", "Best players"), ("menu-history", "History of night")):
            click(driver, "btn-menu")
            wait_for(driver, f"{item} in the menu", lambda: visible(driver, item))
            click(driver, item)
            wait_for(driver, title, lambda: visible(driver, "info-dialog") and title in text_of(driver, "info-title"))
            click(driver, "info-close")

        # A junior game played to its end by carl: the score sheet rounds times as set-cli does.
        click(driver, "btn-menu")
        wait_for(driver, "Start in the menu", lambda: visible(driver, "menu-start"))
        click(driver, "menu-start")
        rev, board = dealt_board(carl)
        stats = None
        for _ in range(30):
            claim = find_set(board)
            if claim is None:
                fail(f"no set on the junior board {board}")
            lines, final = carl.request(f"CHOOSE {' '.join(claim)} @{rev}")
            if any(line.startswith("OVER ") for line in lines):
                stats = [line for line in lines if line.startswith("STATS carl ")]
                if not stats:
                    stats = [carl.expect("STATS carl ")[0]]
                break
            rev, board = board_of([line for line in lines if line.startswith("BOARD ")][-1])
        if not stats:
            fail("the junior game did not end")
        fastest = int(re.search(r"fastest=(\d+)", stats[0]).group(1))
        wait_for(driver, "the score sheet",
                 lambda: visible(driver, "over-dialog") and f"fastest {format_seconds(fastest)}" in text_of(driver, "results"))
        wait_for(driver, "the game's length", lambda: re.match(r"Game length \d+:\d\d$", text_of(driver, "duration")))
        # The night's standings under the sheet, and Play again: carl hears the offer.
        wait_for(driver, "the night's standings",
                 lambda: visible(driver, "night") and "carl" in text_of(driver, "standings") and "Tonight · 1 game" in text_of(driver, "night-title"))
        click(driver, "btn-rematch")
        carl.expect("REMATCH ")
        wait_for(driver, "the rematch offer", lambda: re.search(r"1 of \d+ want to play again", text_of(driver, "rematch-status")))
        click(driver, "btn-close-over")

        # Leaving asks first; "Stay" stays.
        click(driver, "btn-menu")
        wait_for(driver, "Leave in the menu", lambda: visible(driver, "menu-leave"))
        click(driver, "menu-leave")
        wait_for(driver, "the question", lambda: visible(driver, "confirm-dialog") and "Leave night?" in text_of(driver, "confirm-title"))
        click(driver, "confirm-cancel")
        if not visible(driver, "table"):
            fail("Stay left the room")

        # A new game, dealt at once by the host, for the phone.
        carl.request("NEW")
        wait_for(driver, "the next waiting room", lambda: visible(driver, "waiting"))
        click(driver, "btn-menu")
        wait_for(driver, "Start in the menu", lambda: visible(driver, "menu-start"))
        click(driver, "menu-start")
        rev, board = dealt_board(carl)
        started = int(carl.expect("STARTED ")[0].split()[1])
        wait_for(driver, "the deal", lambda: page_board(driver) == board and not visible(driver, "countdown"))
        time.sleep(2)  # so that a clock that restarted at a reload would show it

        # The phone: tips on the first visit, the same letter order, and a badge for chat below the fold.
        set_viewport(driver, 375, 812, True)
        driver.execute_script("localStorage.removeItem('setd.tips')")
        driver.refresh()
        wait_for(driver, "the tips of a first visit", lambda: visible(driver, "tips-dialog"))
        shoot(driver, args, "page-phone-tips.png")
        close_tips(driver)
        wait_for(driver, "the board after a reload", lambda: page_board(driver) == board)
        # The clock counts from the deal the server told (STARTED), not from the reload.
        time.sleep(1.2)
        clock = re.search(r"(\d+):(\d\d)", text_of(driver, "deck"))
        shown = int(clock.group(1)) * 60 + int(clock.group(2)) if clock else -1
        elapsed = time.time() - started / 1000
        if abs(shown - elapsed) > 1.5:
            fail(f"the clock shows {shown} s after a reload, but the game was dealt {elapsed:.1f} s ago")
        if not letters_run_down_columns(driver):
            fail("the letters do not run down columns on a phone")
        # A phone a little shorter (375×667): the chat is below the board, out of sight.
        set_viewport(driver, 375, 667, True)
        driver.execute_script("window.scrollTo(0, 0)")
        carl.request("CHAT is anyone still here?")
        wait_for(driver, "the unread chat badge", lambda: visible(driver, "chat-badge") and "1 new message" in text_of(driver, "chat-badge"))
        shoot(driver, args, "page-phone-badge.png")
        click(driver, "chat-badge")
        wait_for(driver, "the chat in view, the badge gone", lambda: not visible(driver, "chat-badge"))
        print(f"PASS: kicked, locked, readied, started, voted, claimed by keys, scored; screenshots in {args.out}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
