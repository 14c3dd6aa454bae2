"""``pokerbot web`` in a real headless browser: a scripted person plays 20 hands against a
strategy through the page (which speaks ACPC to our dealer over WebSocket), and a match is
watched live; both logs check clean.

The test needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them).
Where they are missing it fails and says how to install them: it is never skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WAIT = 60.0


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
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.fail(
            f"the browser test needs {' and '.join(missing)}: apt-get install chromium chromium-driver "
            "(.ci/run does it)"
        )
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
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--window-size=1000,1400",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _state(driver: WebDriver) -> str:
    return driver.find_element(By.ID, "status").get_attribute("data-state") or ""


def _seq(driver: WebDriver) -> int:
    return int(driver.find_element(By.ID, "status").get_attribute("data-seq") or 0)


def _wait_for(driver: WebDriver, *states: str, after: int = -1) -> str:
    """Wait until the page shows one of ``states`` (in a status newer than ``after``)."""
    WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: _state(d) in states and _seq(d) > after)
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


def test_a_person_plays_twenty_hands_in_the_browser(web_url: str, browser: WebDriver, tmp_path: Path) -> None:
    _setup(browser, web_url, "holdem-nolimit-2p", 20)
    Select(browser.find_element(By.ID, "opponent")).select_by_visible_text("random")
    browser.find_element(By.ID, "play").click()
    decisions = 0
    tried_bad_raise = False
    seen = -1
    while _wait_for(browser, "turn", "over", after=seen) == "turn":
        amount = browser.find_element(By.ID, "amount")
        can_raise = browser.find_element(By.ID, "raise").is_displayed()
        table = browser.find_element(By.ID, "felt").text
        assert "pot" in table and "board:" in table and "you" in table
        if can_raise and not tried_bad_raise:
            low = int(amount.get_attribute("min") or 0)
            amount.clear()
            amount.send_keys(str(low - 1))
            browser.find_element(By.ID, "raise").click()
            assert browser.find_element(By.ID, "status").text == (
                f"A raise goes to {low}..{amount.get_attribute('max')}"
            )
            assert _state(browser) == "turn"  # nothing was sent: still our turn
            tried_bad_raise = True
        seen = _seq(browser)
        if can_raise and decisions % 3 == 0:
            low = int(amount.get_attribute("min") or 0)
            amount.clear()
            amount.send_keys(str(low))
            browser.find_element(By.ID, "raise").click()
        else:
            browser.find_element(By.ID, "call").click()
        decisions += 1
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("Match over: 20 hands; you "), status
    assert decisions >= 20 and tried_bad_raise
    browser.save_screenshot(str(tmp_path / "play.png"))
    log = (tmp_path / "web" / "web-1.log").read_text().splitlines()
    report = check_log(log, load_game("holdem-nolimit-2p"))
    assert report.ok and report.hands == 20, report.problems
    assert _total(browser, "you") == pytest.approx(report.totals["you"])
    assert _total(browser, "random") == pytest.approx(report.totals["random"])
    history = browser.find_element(By.ID, "history").text
    assert history.count(" over: you ") == 20


def test_a_match_is_watched_live(web_url: str, browser: WebDriver, tmp_path: Path) -> None:
    _setup(browser, web_url, "leduc", 6)
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
    history = browser.find_element(By.ID, "history").text
    assert "always-raise bet" in history or "always-raise raise" in history
    assert history.count(" over: ") == 6
    report = check_log((tmp_path / "web" / "web-1.log").read_text().splitlines(), load_game("leduc"))
    assert report.ok and report.hands == 6
    assert _total(browser, "always-raise") == pytest.approx(report.totals["always-raise"])
    assert browser.execute_script("return document.getElementById('bankroll').toDataURL().length") > 2000
