"""``make serve``'s gunicorn settings (gunicorn.conf.py) are settings gunicorn knows (a misspelt one is
silently ignored by gunicorn), and keep connections open between requests."""
from __future__ import annotations

import runpy

from gunicorn.config import Config

from service.local import SERVE_CONFIG


def test_every_setting_is_one_gunicorn_knows():
    settings = {k: v for k, v in runpy.run_path(str(SERVE_CONFIG)).items() if not k.startswith("__")}
    config = Config()
    assert settings and set(settings) <= set(config.settings), set(settings) - set(config.settings)
    for name, value in settings.items():
        config.set(name, value)     # gunicorn's own validation of each value
    assert config.worker_class_str == "gthread" and config.keepalive > 0 and config.threads > 1
