"""pytest configuration: hypothesis without deadlines (timing belongs in benchmarks/), and
the headless Chromium of the browser tests (the report's and the docs site's)."""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import settings

settings.register_profile("concord", deadline=None, print_blob=True)
settings.load_profile("concord")

# the scripts that wrote the committed reference values import their peers (pygamma-agreement,
# DKPro through Java, perl's conlleval): they are run by hand, never collected
collect_ignore_glob = ["reference/*/*.py"]


def _browser_paths() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium and driver:
        return chromium, driver
    reason = "headless Chromium and chromedriver are not installed (make test installs them)"
    if os.environ.get("CONCORD_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = _browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1280,1000")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    yield driver
    driver.quit()
