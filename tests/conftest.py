"""Shared fixtures: ``live_server`` / ``live_server_module`` (a real gunicorn server, see
tests/web_live.py and docs/web-api.md) and ``chromium`` (a real browser, tests/browser.py)."""

from tests.browser import chromium
from tests.web_live import live_server, live_server_module

__all__ = ["chromium", "live_server", "live_server_module"]
