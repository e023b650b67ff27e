"""Shared fixtures: ``live_server`` / ``live_server_module`` (a real gunicorn server, see
tests/web_live.py and docs/web-api.md)."""

from tests.web_live import live_server, live_server_module

__all__ = ["live_server", "live_server_module"]
