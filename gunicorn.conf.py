"""gunicorn settings of ``make serve`` (chosen by measurement: docs/performance.md, *API server*).

Threaded workers keep connections open between requests (HTTP keep-alive); sync workers
close every connection after one request, and the reconnects were most of a request's cost.
``--bind`` and the app are given on the command line (see the Makefile).
"""
workers = 2
worker_class = "gthread"
threads = 8
keepalive = 5
