"""gunicorn settings of the service, chosen by measurement (docs/performance.md, *The API's own server* and
*Slow clients*): read by ``make serve`` (gunicorn.conf.py) and ``rulespec serve`` (``-c
python:service.serving``), so the installed package serves as the checkout does.

The worker is gunicorn's threaded worker with each request read in full by its event loop before a thread
takes it (``service.worker.BufferedThreadWorker``): a slow client costs a buffer, not a thread.  Threaded
workers keep connections open between requests (HTTP keep-alive).  Four threads per worker: side by side
(wrk, 16 and 200 connections) 4 threads served ``/v1/score`` at about the req/s of 2 and more than 8
(3,721 and 3,753 against 3,555/3,703 and 2,976/2,767), with a p99 half that of 8 threads (397/552 ms
against 808/1,150: CPU-bound requests in more threads take turns on the GIL); 2 threads had the lowest
p99, but 2 workers × 4 threads keep eight requests in progress where a slow one (a claim's search, a
bounded diff) would otherwise hold the others up.  ``--bind`` and the app are given on the command line.
"""
workers = 2
worker_class = "service.worker.BufferedThreadWorker"
threads = 4
keepalive = 5
