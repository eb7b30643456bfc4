"""Playwright harness for browser tests: the `browser` and `page` fixtures.

Drives Debian's Chromium (/usr/bin/chromium, `apt-get install chromium`) through Playwright's sync
API. Playwright's own browser download (`playwright install`) is never used: it cannot reach its
servers here. Use with pytest-django's `live_server`:

    @pytest.mark.browser
    def test_something(page, live_server):
        page.goto(live_server.url + "/admin/login/")

Registered by `-p tests.plugins.browser` in pyproject's addopts. Whether browser tests run at all
(skip, or fail in CI, when Chromium is missing) is decided in tests/plugins/markers.py.
"""
import os
import re
import shutil
from pathlib import Path

import pytest

# Playwright's sync API keeps an asyncio event loop in the main thread; Django then refuses ORM
# calls from that thread (SynchronousOnlyOperation) in tests and in live_server set-up. The tests
# are synchronous code, so the check is a false alarm here. Set at import, before any test runs.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("TICHU_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",  # CI and the dev machines run as root
    "--headless=new",
    "--disable-gpu",
    # The machines have no network beyond localhost and the package registries: without these
    # Chromium keeps trying to reach Google's services at every start.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DEFAULT_TIMEOUT_MS = 10_000
# A failed test that used `page` leaves a screenshot of it here (.ci/out/ is git-ignored).
SCREENSHOTS = Path(os.environ.get("TICHU_SCREENSHOTS", Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots"))
_CALL_REPORT = pytest.StashKey()


def chromium_missing_reason():
    """Why browser tests cannot run here, or None if they can."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        return f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash[_CALL_REPORT] = report
    return report


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, request):
    """A fresh page in its own browser context (no cookies or storage shared between tests).
    A Content-Security-Policy violation on it fails the test. If the test fails, a screenshot is saved under SCREENSHOTS (.ci/out/screenshots/)."""
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    # The site sends a Content-Security-Policy (tichu_site/settings.py): whatever it blocks on a
    # page (an inline script, a style, a request to another host) fails the test that loaded it.
    csp_violations = page.csp_violations = []  # a test may take out one it expects
    page.on("console", lambda msg: csp_violations.append(msg.text)
            if msg.type == "error" and "Content Security Policy" in msg.text else None)
    try:
        yield page
        assert not csp_violations, f"the page broke its Content-Security-Policy: {csp_violations}"
        report = request.node.stash.get(_CALL_REPORT, None)
        if report is not None and report.failed:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "_", request.node.nodeid) + ".png")
            page.screenshot(path=str(path), full_page=True)
            print(f"screenshot of the failed test's page: {path}")
    finally:
        context.close()
