"""The HTML player in a real browser: after each button press the position the page draws
(read back from its SVG into ``data-position``) equals the replay's position.

Selenium drives Debian's ``chromium`` through Debian's ``chromium-driver`` (both installed by
``setup.sh test``): nothing else is needed.  Playwright would need its own browser build,
which it downloads from its own servers, and that cannot be fetched on these machines.
"""
import os
import shutil
import tempfile

import pytest

from conftest import INSTANCES, need
from puzzleplan.animate import canonical, position, write
from puzzleplan.registry import problem as problem_of
from puzzleplan.plugins import Program
from puzzleplan.formats.load import load
from puzzleplan.puzzle import MoveCount
from puzzleplan.search import breadth_first_search

need(Program("chromium", "Debian package chromium: sh setup.sh test as root"),
     Program("chromedriver", "Debian package chromium-driver: sh setup.sh test as root"), module=True)
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

pytestmark = pytest.mark.system     # whole-system checks: run by CI after the quick set (-m system)


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="puzzleplan-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile}", "--window-size=1000,760"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def unit_step(domain, steps, metric, k: int) -> int:
    """Steps done after move ``k``: the last prefix the metric counts as ``k`` moves
    (every step is a frame except in the sliding slides/moves metrics)."""
    if not (domain.family.name == "sliding" and metric in ("slides", "moves")):
        return k
    return max(i for i in range(len(steps) + 1) if domain.rules.count(steps[:i], metric) == k)


POLYOMINOES = """name: an L and two bars
board:
AAB.
A.B.
CC..

goal:
....
.AA.
.A..
"""


def instances(tmp_path):
    """One instance of every domain (and a polyomino, drawn as one shape of several rects)."""
    rush = problem_of(load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem, [MoveCount("A", ">=", 3)])
    slide = tmp_path / "l.slide"
    slide.write_text(POLYOMINOES)
    return {"rushhour": (rush, "slides"),
            "polyomino": (load(slide).problem, "moves"),
            "microban2": (load(INSTANCES / "sokoban/Microban.txt", 2).problem, "pushes"),
            "seed003": (load(INSTANCES / "seeds/knights_seed003.knights").problem, "steps")}


def board(driver):
    return driver.find_element(By.ID, "board")


def shown(driver):
    b = board(driver)
    return int(b.get_attribute("data-step")), b.get_attribute("data-position")


def expect(domain, history, steps, metric, k):
    return k, canonical(position(domain.rules, history[unit_step(domain, steps, metric, k)]))


@pytest.mark.parametrize("name", ["rushhour", "polyomino", "microban2", "seed003"])
def test_drawn_position_is_the_replay(browser, name, tmp_path):
    domain, metric = instances(tmp_path)[name]
    steps = breadth_first_search(domain, metric).steps
    page = tmp_path / f"{name}.html"
    write(domain, steps, metric, page)
    history = domain.rules.replay(steps).history
    total = domain.rules.count(steps, metric) if domain.family.name == "sliding" and metric != "steps" else len(steps)
    browser.get(page.as_uri())
    press = lambda button: browser.find_element(By.ID, button).click()   # noqa: E731

    assert shown(browser) == expect(domain, history, steps, metric, 0)
    for k in range(1, 4):
        press("forward")
        assert shown(browser) == expect(domain, history, steps, metric, k)
    press("back")
    assert shown(browser) == expect(domain, history, steps, metric, 2)
    current = browser.find_element(By.CSS_SELECTOR, "#moves li.current").text
    assert current.split() == steps[unit_step(domain, steps, metric, 1):unit_step(domain, steps, metric, 2)]

    middle = total // 2
    browser.execute_script("const s = document.getElementById('slider'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('input'));", middle)
    assert shown(browser) == expect(domain, history, steps, metric, middle)
    press("last")
    assert shown(browser) == expect(domain, history, steps, metric, total)
    assert "solved" in browser.find_element(By.ID, "caption").text
    press("first")
    assert shown(browser) == expect(domain, history, steps, metric, 0)

    browser.execute_script("const s = document.getElementById('speed'); s.value = '16';"
                           "s.dispatchEvent(new Event('change'));")
    press("play")
    assert board(browser).get_attribute("data-playing") == "true"
    WebDriverWait(browser, 60).until(lambda d: board(d).get_attribute("data-playing") == "false")
    assert shown(browser) == expect(domain, history, steps, metric, total)
    assert browser.find_element(By.ID, "play").text == "play"
    if os.environ.get("PUZZLEPLAN_SCREENSHOTS"):      # to look at the page by eye
        browser.save_screenshot(os.path.join(os.environ["PUZZLEPLAN_SCREENSHOTS"], f"{name}.png"))



PAYLOADS = ["<!--<script>", "</script><script>document.body.remove()</script>", "<!-- </script> -->",
            "a & b <b>bold</b>", "__SCENE__ and __TITLE__"]


@pytest.mark.parametrize("title", PAYLOADS)
def test_hostile_titles_leave_the_page_working(browser, title, tmp_path):
    """A title is data: the page plays, and shows it as text (``<!--<script>`` in the script
    element once left the page blank)."""
    slide = tmp_path / "t.slide"
    slide.write_text(f"name: {title}\n" + POLYOMINOES.split("\n", 1)[1])
    domain = load(slide).problem
    steps = breadth_first_search(domain, "steps").steps
    page = tmp_path / "t.html"
    write(domain, steps, "steps", page)
    browser.get(page.as_uri())
    history = domain.rules.replay(steps).history
    assert shown(browser) == expect(domain, history, steps, "steps", 0)
    browser.find_element(By.ID, "forward").click()
    assert shown(browser) == expect(domain, history, steps, "steps", 1)
    assert browser.find_element(By.ID, "title").text.startswith(title + ":")
    assert browser.title.startswith(title)
