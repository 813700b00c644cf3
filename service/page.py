"""The dispute page: one HTML page at ``/`` with its CSS and JavaScript.

The page is a plain client of the JSON API (``/v1/...``); it needs no build
step and loads nothing from outside the service, so it works on a LAN with no
internet.  Its score sheet lives in the browser's localStorage.
"""
from __future__ import annotations

from flask import Blueprint, render_template

from rulespec.core.cards import SEATS, TEAMS, Table

SEAT_NAMES = dict(zip(SEATS, ("North", "East", "South", "West", "X", "Y")))   # (past W, the seats of 5 and 6)
SIX_TEAMS = Table(6, True).side_names                                          # NW, EX, SY: partners opposite

page = Blueprint("page", __name__, static_folder="static", static_url_path="/page/static",
                 template_folder="templates")


@page.get("/")
def index():
    return render_template("page.html", seats=SEAT_NAMES.items(), teams=TEAMS + SIX_TEAMS, players=SEATS,
                           partnerships=TEAMS)
