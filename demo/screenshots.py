"""Make the pictures in docs/images/ with concord's own commands (run by ``make screenshots``).

* ``docs/images/report.png`` and ``docs/images/report-raters.png``: the top
  of the HTML report that ``make demo`` writes (the summary, the contents,
  the data and the coefficients) and its raters, categories and flags,
  rendered by headless Chromium (Debian's chromium and chromium-driver,
  driven by Selenium);
* ``docs/images/observed.png`` and ``docs/images/thresholds.png``: two
  :mod:`concord.plot` displays of the bundled essays;
* ``docs/images/bland_altman.png`` and ``docs/images/concordance.png``: the
  continuous-ratings displays of Bland & Altman's (1986) PEFR data
  (``data/pefr.csv``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd

import concord
from concord import plot

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
REPORT = ROOT / "demo" / "report.html"


def report() -> None:
    concord_cli = Path(sys.executable).with_name("concord")
    subprocess.run(
        [str(concord_cli), "report", "data/essays.csv", "--raters", "rater1,rater2,rater3",
         "--weights", "quadratic", "--title", "Essay scoring: three human raters",
         "-o", str(REPORT.relative_to(ROOT)), "--overwrite"],
        check=True, cwd=ROOT,
    )  # fmt: skip
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1500"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    try:
        driver.get(REPORT.as_uri())
        driver.save_screenshot(str(IMAGES / "report.png"))
        driver.execute_script("document.getElementById('raters').scrollIntoView()")
        driver.save_screenshot(str(IMAGES / "report-raters.png"))
    finally:
        driver.quit()


def plots() -> None:
    essays = pd.read_csv(ROOT / "data" / "essays.csv")
    kappa = concord.cohen_kappa(essays["truth"], essays["model_grade"], weights="quadratic")
    display = plot.ObservedMatrixDisplay.from_result(kappa, normalize="row").plot()
    display.ax_.set_title("Essays: true grade (rows) vs the model's grade, row shares")
    display.figure_.savefig(IMAGES / "observed.png", dpi=110, bbox_inches="tight")
    best = concord.optimize_thresholds(essays["truth"], essays["model_score"])
    display = plot.ThresholdDisplay.from_result(best, essays["truth"], essays["model_score"])
    display.plot().figure_.savefig(IMAGES / "thresholds.png", dpi=110, bbox_inches="tight")


def continuous() -> None:
    pefr = pd.read_csv(ROOT / "data" / "pefr.csv")
    x, y = pefr["wright"], pefr["mini_wright"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    plot.BlandAltmanDisplay.from_data(x, y).plot(ax=left)
    left.set_title("Limits of agreement, with their 95% intervals")
    plot.BlandAltmanDisplay.from_data(x, y, proportional=True).plot(ax=right)
    right.set_title("proportional=True: the differences regressed on the means")
    for ax in (left, right):
        ax.set_xlabel("mean of Wright and mini Wright (l/min)")
    left.set_ylabel("Wright − mini Wright (l/min)")
    right.set_ylabel("")
    figure.suptitle("Bland & Altman (1986): peak expiratory flow, 17 subjects")
    figure.savefig(IMAGES / "bland_altman.png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    display = plot.ConcordanceDisplay.from_data(x, y).plot()
    display.ax_.set_xlabel("Wright meter (l/min)")
    display.ax_.set_ylabel("mini Wright meter (l/min)")
    rho = display.result.statistic
    title = f"PEFR (l/min): Lin's ρ_c = {rho:.3f}, identity line and reduced major axis"
    display.ax_.set_title(title)
    display.figure_.savefig(IMAGES / "concordance.png", dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    IMAGES.mkdir(parents=True, exist_ok=True)
    plots()
    continuous()
    report()
    print(f"wrote {', '.join(p.name for p in sorted(IMAGES.glob('*.png')))} in {IMAGES}")
