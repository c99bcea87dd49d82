"""Headless Chromium for the site: the browser tests and the README's screenshots.

Debian's ``chromium`` and ``chromium-driver`` packages are driven by Selenium pointed at
the system binaries (Selenium Manager never downloads a browser here).  The flags keep the
browser offline and quiet: no sync, no component updates, no background networking, a
fresh profile per run.

Screenshots for the README (from a site built by ``dpderive html -o SITE``)::

    python3 -m derivations.app.html.browser SITE docs/
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = [
    "CHROMIUM_FLAGS",
    "INSTALL",
    "chromium",
    "find_chromium",
    "full_page",
    "phone",
    "screenshot",
    "teaching_view",
]

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
INSTALL = "apt-get install chromium chromium-driver; pip install selenium"


def find_chromium() -> tuple[str, str] | None:
    """The system Chromium and its chromedriver, or None when either (or Selenium) is
    missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None
    return (browser, driver) if browser and driver else None


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A headless Chromium WebDriver with a fresh profile, console logs captured."""
    found = find_chromium()
    if found is None:
        raise RuntimeError(f"headless Chromium is not available: {INSTALL}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="dpderive-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = found[0]
        for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(executable_path=found[1]), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def screenshot(driver: Any, page: Path, target: Path, height: int | None = None) -> Path:
    """Open ``page`` (a file of the site) and save the window (``height`` pixels tall
    when given) as a PNG."""
    if height is not None:
        driver.set_window_size(driver.get_window_size()["width"], height)
    driver.get(page.resolve().as_uri())
    driver.save_screenshot(str(target))
    return target


def full_page(driver: Any, page: Path, target: Path, limit: int = 3000) -> Path:
    """Open ``page`` and save all of it (up to ``limit`` pixels tall) as a PNG."""
    driver.get(page.resolve().as_uri())
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    return screenshot(driver, page, target, min(height + 20, limit))


def teaching_view(driver: Any, page: Path, target: Path, steps: int, why: int) -> Path:
    """``page`` in "Step through" with ``steps`` steps shown and step ``why``'s
    justification and evidence open (two clicks on "why?"), the proof at the top."""
    driver.set_window_size(driver.get_window_size()["width"], 1100)
    driver.get(page.resolve().as_uri())
    driver.find_element("id", "teach-start").click()
    for _ in range(steps - 1):
        driver.find_element("id", "teach-next").click()
    button = driver.find_element("css selector", f"#step-{why} .why-button")
    button.click()
    button.click()
    driver.execute_script("document.querySelector('section.proof').scrollIntoView();")
    driver.save_screenshot(str(target))
    return target


def phone(driver: Any, width: int = 390, height: int = 844) -> None:
    """Lay pages out as a phone ``width`` px wide: below about 500 px Chromium does not
    shrink a window, so the device metrics are set (as DevTools' device mode does)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -m derivations.app.html.browser SITE_DIR OUT_DIR", file=sys.stderr)
        return 2
    site, out = Path(argv[0]), Path(argv[1])
    with chromium(1280, 900) as driver:
        print(screenshot(driver, site / "index.html", out / "html-index.png", 1000))
        page = site / "theorems" / "laplace-ratio.html"
        print(full_page(driver, page, out / "html-laplace-ratio.png", 1900))
        kl = site / "theorems" / "kl-bound.html"
        print(full_page(driver, kl, out / "html-kl-bound.png", 2100))
        print(teaching_view(driver, kl, out / "html-teaching.png", steps=5, why=5))
        # A student's proof, when the site has it (dpderive html -o SITE --with-catalog
        # docs/examples/laplace_ratio_true_claim_wrong_step.toml): their own lines.
        proof = site / "proofs" / "laplace_ratio_true_claim_wrong_step.html"
        if proof.is_file():
            print(full_page(driver, proof, out / "html-proof.png", 2000))
    with chromium(500, 900) as driver:
        phone(driver, 390, 1400)
        print(screenshot(driver, site / "index.html", out / "html-phone.png"))
    # the graph page takes the whole window: one wide enough for every column of the graph
    with chromium(2400, 900) as driver:
        print(full_page(driver, site / "graph.html", out / "lemma-graph.png", 2400))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
