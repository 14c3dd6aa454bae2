"""``pokerbot web`` in a real headless browser: a scripted person plays ten hands against
``adaptive`` through the page (which speaks ACPC to our dealer over WebSocket), betting with
the pot-sized buttons; the table fits a laptop's and a phone's window; a match is watched
live. Every log checks clean.

The screenshots of a hand in progress and of a showdown go to ``POKERBOT_SCREENSHOTS`` when
it names a folder (the README's, in ``docs/images/``, are made so), else to the test's
temporary folder.

The tests need Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them;
``POKERBOT_CHROMIUM`` and ``POKERBOT_CHROMEDRIVER`` name other paths). Where they are missing
the tests are skipped, and the run's summary says how to install them in one line; where the
``CI`` environment variable is set they are never skipped: they fail instead.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log

CHROMIUM = Path(os.environ.get("POKERBOT_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("POKERBOT_CHROMEDRIVER", "/usr/bin/chromedriver"))
INSTALL = "apt-get install chromium chromium-driver"
WAIT = 60.0
FIRST_WAIT = 600.0
"""The first decision of a hold'em agent in a fresh install compiles its code (about a minute)."""
HAND_NAME = re.compile(
    r"\w+ high|pair of \w+|two pair, \w+ and \w+|three of a kind, \w+|straight, \w+ high|flush, \w+ high"
    r"|full house, \w+ full of \w+|four of a kind, \w+|straight flush, \w+ high|royal flush"
)
SIZES = ("½ pot", "⅔ pot", "pot")
SHOWDOWN_SCRIPT = """
const felt = document.getElementById("felt");
return {
  hand: felt.dataset.hand,
  showdown: felt.dataset.showdown === "1",
  named: [...felt.querySelectorAll(".hand-name")].map((e) => e.textContent).filter((t) => t),
  winners: felt.querySelectorAll(".seat.winner").length,
};
"""
"""What the table shows of a finished hand, read in one go."""


@pytest.fixture(autouse=True)
def _browser_installed() -> None:
    """Skip (fail where ``CI`` is set) before anything starts when Chromium or its driver is missing."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        why = f"the browser tests need {' and '.join(missing)}: {INSTALL}"
        if os.environ.get("CI"):
            pytest.fail(f"{why} (CI is set: they are never skipped there)")
        pytest.skip(why)


@pytest.fixture
def web_url(tmp_path: Path) -> Iterator[str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "pokerbot.bot.cli", "web", "--port", "0", "--out", str(tmp_path / "web")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), server.stderr.read() if server.stderr else ""
        yield url
    finally:
        server.kill()
        server.wait()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never try to download a browser or driver
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--window-size=1280,800",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        _viewport(driver, 1280, 800)
        yield driver
    finally:
        driver.quit()


def _viewport(driver: WebDriver, width: int, height: int) -> None:
    """Size the window so that the page itself is ``width`` x ``height`` pixels (a window's
    size counts its frame too)."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    assert driver.execute_script("return [window.innerWidth, window.innerHeight]") == [width, height]


def _state(driver: WebDriver) -> str:
    return driver.find_element(By.ID, "status").get_attribute("data-state") or ""


def _seq(driver: WebDriver) -> int:
    return int(driver.find_element(By.ID, "status").get_attribute("data-seq") or 0)


def _wait_for(driver: WebDriver, *states: str, after: int = -1, timeout: float = WAIT) -> str:
    """Wait until the page shows one of ``states`` (in a status newer than ``after``)."""
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: _state(d) in states and _seq(d) > after)
    return _state(driver)


def _setup(driver: WebDriver, url: str, game: str, hands: int) -> None:
    driver.get(url)
    WebDriverWait(driver, WAIT).until(lambda d: len(Select(d.find_element(By.ID, "game")).options) > 0)
    Select(driver.find_element(By.ID, "game")).select_by_visible_text(game)
    hands_box = driver.find_element(By.ID, "hands")
    hands_box.clear()
    hands_box.send_keys(str(hands))


def _total(driver: WebDriver, name: str) -> float:
    row = driver.find_element(By.CSS_SELECTOR, f'#totals tr[data-name="{name}"]')
    return float(row.get_attribute("data-total") or "nan")


def _screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("POKERBOT_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _save_screenshot(browser: WebDriver, path: Path) -> None:
    """The page as a small PNG (64 colours: the README's screenshots stay small)."""
    image = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
    assert image.size == (1280, 800), image.size
    image.quantize(colors=64).save(path, optimize=True)


def _bet_with_a_size_button(browser: WebDriver, choices: dict[str, object], turn: int) -> int:
    """Click one of the pot-sized buttons, then the bet button; the protocol's raise-to sent."""
    buttons = {b.get_attribute("data-label"): b for b in browser.find_elements(By.CSS_SELECTOR, "#sizes button.size")}
    label = next((name for name in SIZES[turn % 3 :] + SIZES[: turn % 3] if name in buttons), "all-in")
    buttons[label].click()
    amount = int(buttons[label].get_attribute("data-amount") or 0)
    assert int(browser.find_element(By.ID, "amount").get_attribute("value") or 0) == amount
    assert int(browser.find_element(By.ID, "slider").get_attribute("value") or 0) == amount
    verb = "Raise to" if choices["raise_word"] == "raise" else "Bet"
    assert browser.find_element(By.ID, "raise").text.startswith(f"{verb} {amount:,}")
    browser.find_element(By.ID, "raise").click()
    return int(choices["base"]) + amount  # type: ignore[call-overload]


@pytest.mark.slow
def test_a_person_plays_ten_hands_against_adaptive_with_the_bet_buttons(
    web_url: str, browser: WebDriver, tmp_path: Path
) -> None:
    shots = _screenshots(tmp_path)
    _setup(browser, web_url + "?pause=1500", "holdem-nolimit-2p", 10)
    Select(browser.find_element(By.ID, "opponent")).select_by_visible_text("adaptive")
    browser.find_element(By.ID, "play").click()
    sent: list[tuple[int, int]] = []  # (hand, the protocol's raise-to) of each sized bet
    decisions, seen = 0, -1
    tried_bad_amount = showdown = False
    in_progress = 0  # 1: a turn after the flop shot, 2: one facing a bet there (chips on the table)
    while (state := _wait_for(browser, "turn", "result", "over", "error", after=seen, timeout=FIRST_WAIT)) != "over":
        assert state != "error", browser.find_element(By.ID, "status").text
        seen = _seq(browser)
        felt = browser.find_element(By.ID, "felt")
        if state == "result":
            shown = browser.execute_script(SHOWDOWN_SCRIPT)  # read at once: the page moves on after its pause
            if shown["showdown"] and not showdown:
                # Both hands face up and named, the winner's seat highlighted.
                assert len(shown["named"]) == 2 and all(HAND_NAME.fullmatch(name) for name in shown["named"]), shown
                assert shown["winners"] >= 1, shown
                _save_screenshot(browser, shots / "web-showdown.png")
                showdown = browser.execute_script(SHOWDOWN_SCRIPT)["hand"] == shown["hand"]  # still that hand
            continue
        table = felt.text
        assert "you" in table and "adaptive" in table and "Pot" in table
        assert re.search(r"(small|big) blind (50|100)", table)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#felt .button-disc")) == 1
        view = browser.execute_script("return match.view")
        choices = view["choices"]
        first_of_hand = not any(step["name"] == "you" for step in view["history"])
        if first_of_hand and choices["can_raise"]:
            if not tried_bad_amount:
                amount = browser.find_element(By.ID, "amount")
                amount.clear()
                amount.send_keys(str(choices["min_amount"] - 1))
                browser.find_element(By.ID, "raise").click()
                what = "A raise goes to" if choices["raise_word"] == "raise" else "A bet is"
                expected = f"{what} {choices['min_amount']}..{choices['max_amount']}"
                assert browser.find_element(By.ID, "status").text == expected
                assert _state(browser) == "turn"  # nothing was sent: still our turn
                seen = _seq(browser)
                tried_bad_amount = True
            sent.append((view["hand_number"], _bet_with_a_size_button(browser, choices, decisions)))
        else:
            better = 2 if choices["call_amount"] else 1
            if len(view["board"]) >= 3 and better > in_progress:
                _save_screenshot(browser, shots / "web-hand.png")
                in_progress = better
            browser.find_element(By.ID, "call").click()
        decisions += 1
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("Match over: 10 hands; you "), status
    assert tried_bad_amount and sent and showdown
    log = (tmp_path / "web" / "web-1.log").read_text().splitlines()
    report = check_log(log, load_game("holdem-nolimit-2p"))
    assert report.ok and report.hands == 10, report.problems
    assert _total(browser, "you") == pytest.approx(report.totals["you"])
    assert _total(browser, "adaptive") == pytest.approx(report.totals["adaptive"])
    # The amounts shown in the round's terms went out in the protocol's: the total for the hand.
    bettings = {int(line.split(":")[1]): line.split(":")[2] for line in log if line.startswith("STATE:")}
    for hand, raise_to in sent:
        assert re.search(rf"r{raise_to}(?!\d)", bettings[hand]), (hand, raise_to, bettings[hand])
    history = browser.find_element(By.ID, "history")
    assert len(history.find_elements(By.CSS_SELECTOR, ".hand")) == 10
    text = history.text
    assert re.search(r"\badaptive (calls|checks|bets|raises to|folds)\b", text)
    assert re.search(r"\byou (call|check|bet|raise to|fold)\b", text)
    showdowns = [line.text for line in history.find_elements(By.CSS_SELECTOR, ".showdown")]
    assert showdowns and all(HAND_NAME.search(line) for line in showdowns)
    assert history.find_elements(By.CSS_SELECTOR, ".showdown .winner")
    assert browser.execute_script("return document.getElementById('bankroll').toDataURL().length") > 2000
    assert in_progress and (shots / "web-hand.png").stat().st_size > 10_000
    assert (shots / "web-showdown.png").stat().st_size > 10_000


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_the_table_fits_the_window(web_url: str, browser: WebDriver, size: tuple[int, int]) -> None:
    _viewport(browser, *size)
    _setup(browser, web_url, "holdem-nolimit-2p", 2)
    Select(browser.find_element(By.ID, "opponent")).select_by_visible_text("always-call")
    browser.find_element(By.ID, "play").click()
    _wait_for(browser, "turn")
    width = browser.execute_script("return window.innerWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width  # no sideways scrolling
    for selector in ("#felt", "#seat-top .plate", "#seat-bottom .plate", "#board", "#call", "#raise", "#sizes"):
        box = browser.find_element(By.CSS_SELECTOR, selector).rect
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box, width)
        assert box["width"] > 0 and box["height"] > 0, selector
    cards = browser.find_elements(By.CSS_SELECTOR, "#seat-bottom .card[data-card]")
    assert len(cards) == 2 and all(card.is_displayed() for card in cards)
    with urllib.request.urlopen(web_url + "favicon.ico", timeout=WAIT) as icon:
        assert icon.status == 200 and icon.headers["Content-Type"] == "image/x-icon" and len(icon.read()) > 100


def test_a_match_is_watched_live(web_url: str, browser: WebDriver, tmp_path: Path) -> None:
    _setup(browser, web_url + "?pause=200", "leduc", 6)
    Select(browser.find_element(By.ID, "watch-a")).select_by_visible_text("always-raise")
    Select(browser.find_element(By.ID, "watch-b")).select_by_visible_text("always-call")
    pace = browser.find_element(By.ID, "pace")
    pace.clear()
    pace.send_keys("0.05")
    started = time.monotonic()
    browser.find_element(By.ID, "watch").click()
    _wait_for(browser, "over")
    assert time.monotonic() - started > 0.05 * 6  # paced: every decision waited
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("Match over: 6 hands; always-raise "), status
    history = browser.find_element(By.ID, "history")
    assert re.search(r"always-raise (bets|raises to) \d", history.text)
    assert re.search(r"always-call calls \d", history.text)
    # Every hand is shown down (always-call never folds): the cards and what they make.
    showdowns = [line.text for line in history.find_elements(By.CSS_SELECTOR, ".showdown")]
    assert len(showdowns) == 6
    assert all(re.search(r"always-raise \w\w: .+ high|always-raise \w\w: pair", line) for line in showdowns)
    assert all(re.search(r"always-call \w\w: .+ high|always-call \w\w: pair", line) for line in showdowns)
    assert browser.find_elements(By.CSS_SELECTOR, "#felt .card[data-card]")  # the last hand stays face up
    report = check_log((tmp_path / "web" / "web-1.log").read_text().splitlines(), load_game("leduc"))
    assert report.ok and report.hands == 6
    assert _total(browser, "always-raise") == pytest.approx(report.totals["always-raise"])
    assert "antes" in browser.find_element(By.ID, "totals").text  # Leduc has antes, not blinds
    assert browser.execute_script("return document.getElementById('bankroll').toDataURL().length") > 2000
