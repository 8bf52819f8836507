"""Headless Chromium for the GraphiQL page scripts (graphiql_browser.py, graphiql_url_browser.py):
Debian's chromium and chromium-driver, driven by Debian's python3-selenium, offline (every host
name but the loopback address fails to resolve, so anything a page tried to load from a CDN
would fail). Chromium's scratch files (its singleton socket, scoped dirs) go to a private TMPDIR
removed on exit: in the shared /tmp they outlived every run.
"""
import atexit
import os
import shutil
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def screenshot_path():
    """The PNG path after --screenshot on the command line, or None."""
    return sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None


def start_chromium(scratch_prefix):
    """A headless Chromium quit at exit, before its scratch directory (named `scratch_prefix`…)
    is removed."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1400,900", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update",
                     # Offline: only the gateway's address resolves.
                     "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
        options.add_argument(argument)
    scratch = tempfile.mkdtemp(prefix=scratch_prefix)
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    service = Service("/usr/bin/chromedriver", env={**os.environ, "TMPDIR": scratch})
    driver = webdriver.Chrome(service=service, options=options)

    def close():
        """Chromium gone before its scratch directory is (atexit runs this first)."""
        try:
            driver.quit()
        except Exception:
            pass

    atexit.register(close)
    return driver


def checker(driver, screenshot):
    """check(condition, message): on a false condition, prints FAILED: message to stderr, saves
    the screenshot if one was asked for, quits Chromium and exits 1."""
    def check(condition, message):
        if not condition:
            print("FAILED: " + message, file=sys.stderr)
            if screenshot:
                driver.save_screenshot(screenshot)
            driver.quit()
            sys.exit(1)

    return check
