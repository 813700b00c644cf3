"""``make serve``'s gunicorn settings (gunicorn.conf.py) are settings gunicorn knows (a misspelt one is
silently ignored by gunicorn), and keep connections open between requests."""
from __future__ import annotations

import runpy

from pathlib import Path

from gunicorn.config import Config
from gunicorn.workers.gthread import ThreadWorker

from rulespec import cli

from service.local import SERVE_CONFIG


def test_every_setting_is_one_gunicorn_knows():
    settings = {k: v for k, v in runpy.run_path(str(SERVE_CONFIG)).items() if not k.startswith("__")}
    config = Config()
    assert settings and set(settings) <= set(config.settings), set(settings) - set(config.settings)
    for name, value in settings.items():
        config.set(name, value)     # gunicorn's own validation of each value
    assert issubclass(config.worker_class, ThreadWorker) and config.keepalive > 0 and config.threads > 1


def test_rulespec_serve_reads_the_same_settings():
    """``rulespec serve`` (the installed package) gives gunicorn the settings module ``make serve`` reads."""
    import service.serving
    settings = {k: v for k, v in runpy.run_path(str(SERVE_CONFIG)).items() if not k.startswith("__")}
    assert settings == {k: v for k, v in vars(service.serving).items() if not k.startswith("__")}
    source = Path(cli.__file__).read_text()
    assert '"-c", "python:service.serving"' in source
