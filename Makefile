# Two entry points (see README): `make serve` and `make test`.
# Each creates or updates the virtualenv in .venv and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test bench mutation venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	@# (pip is upgraded only where it predates editable installs from pyproject.toml, PEP 660: pip 21.3)
	$(BIN)/python -c 'import pip, sys; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (21, 3))' \
		|| $(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

serve: $(STAMP)
	$(BIN)/gunicorn -c gunicorn.conf.py --bind $(HOST):$(PORT) 'service.app:create_app()'

# Lint first (ruff, then mypy on the packages [tool.mypy] names; both configured in pyproject.toml): a finding
# fails the target before any test runs.  The suite runs on every core (pytest-xdist), the files that share
# compiled modules in one process each (tests/conftest.py: xdist_group), the heaviest first; bytecode is written
# (whatever the environment says) so that the suite's own subprocesses do not compile the package again each.
test: $(STAMP)
	$(BIN)/ruff check rulespec service bench tests devtools
	$(BIN)/mypy
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto --dist loadgroup; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

# Performance targets (not part of the test suite): installs the peer (OpenSpiel) and wrk first.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk) || true
	$(BIN)/python -m bench

# Mutation run (not part of the test suite; about 9 minutes on two idle cores): docs/testing.md
mutation: $(STAMP)
	$(BIN)/python -m devtools.mutate --per-group 60 --seed 2026 --jobs 2 --out mutation.json

clean:
	rm -rf $(VENV) build *.egg-info
