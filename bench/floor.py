"""The service app plus one trivial endpoint, ``POST /_floor`` (parse a JSON body, answer it back): the
framework's floor for a JSON POST on the same server and settings.  Used only by the API benchmark."""
from __future__ import annotations

from flask import Flask, jsonify

from service.app import create_app as create_service_app
from service.bodies import json_body


def create_app() -> Flask:
    app = create_service_app()

    @app.post("/_floor")
    def floor():
        return jsonify(json_body())

    return app
