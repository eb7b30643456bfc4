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

from tests.plugins.long_polls import LONG_POLLS

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
# TICHU_BROWSER_SLOWDOWN=N runs every page's scripts N times slower (Chromium's CPU throttling, as
# DevTools does): a test that reads the page before its script or a navigation has finished fails
# here as it would on a slow, loaded CI machine. `make test-browser-slow` runs the browser tests so.
SLOWDOWN = float(os.environ.get("TICHU_BROWSER_SLOWDOWN", "1") or 1)
# A failed test that used `page` leaves a screenshot of it here (.ci/out/ is git-ignored).
SCREENSHOTS = Path(
    os.environ.get("TICHU_SCREENSHOTS", Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots")
)
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
def chromium():
    """One headless Chromium for the whole session (tests use `browser`, which watches it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class WatchedBrowser:
    """The session's Chromium as one test sees it: every context the test opens is closed after
    it, and every page in those contexts is watched. The site sends a Content-Security-Policy
    (tichu_site/settings.py): whatever it blocks on any page of the test (an inline script, a
    request to another host) fails the test; `page.csp_violations` is the test's list (a test may
    take out one it expects) and `page.errors` collects the pages' uncaught script errors."""

    def __init__(self, browser) -> None:
        self._browser = browser
        self.contexts: list = []
        self.csp_violations: list[str] = []

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.on("page", self._watch)  # fired before new_page() returns
        self.contexts.append(context)
        return context

    def _watch(self, page) -> None:
        page.csp_violations = self.csp_violations
        page.errors = []
        page.on(
            "console",
            lambda msg: (
                self.csp_violations.append(msg.text)
                if msg.type == "error" and "Content Security Policy" in msg.text
                else None
            ),
        )
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        if SLOWDOWN > 1:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})

    def open_pages(self) -> list:
        return [page for context in self.contexts for page in context.pages if not page.is_closed()]

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture
def browser(chromium, request):
    """The session's Chromium, watched for this test (WatchedBrowser). If the test fails, each
    page still open leaves a screenshot under SCREENSHOTS (.ci/out/screenshots/). After the test
    its pages are closed and their long polls on the live server ended (LONG_POLLS)."""
    LONG_POLLS.install()
    watched = WatchedBrowser(chromium)
    try:
        yield watched
        report = request.node.stash.get(_CALL_REPORT, None)
        if report is not None and report.failed:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            for n, open_page in enumerate(watched.open_pages()):
                name = re.sub(r"[^\w.-]+", "_", request.node.nodeid) + (f"-{n}" if n else "") + ".png"
                open_page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
                print(f"screenshot of the failed test's page: {SCREENSHOTS / name}")
        violations = watched.csp_violations
        assert not violations, f"a page broke its Content-Security-Policy: {violations}"
    finally:
        for context in watched.contexts:
            try:
                context.close()
            except Exception:  # closed by the test already
                pass
        # the closed pages' long polls go on in the live server: end them while the test's
        # database is still there (tests/plugins/long_polls.py)
        assert LONG_POLLS.end_all(), f"{LONG_POLLS.running} long polls still waiting after the test"


@pytest.fixture
def page(browser):
    """A fresh page in its own browser context (no cookies or storage shared between tests),
    watched like every page of `browser`."""
    context = browser.new_context()
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return context.new_page()


@pytest.fixture
def open_as(browser, live_server):
    """open_as(user, path, viewport=None) -> a page of a fresh context signed in as `user` (a
    session cookie from Django's test client), at live_server.url + path."""

    def open_page(user, path: str, viewport: dict | None = None):
        from django.conf import settings
        from django.test import Client

        client = Client()
        client.force_login(user)
        context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
        page = context.new_page()
        page.goto(live_server.url + path)
        return page

    return open_page
