"""gunicorn settings of ``make serve``: the service's own (``service/serving.py``, which ``rulespec serve`` reads
too).  ``--bind`` and the app are given on the command line (see the Makefile)."""
from service.serving import keepalive, threads, worker_class, workers  # noqa: F401 - read by gunicorn
