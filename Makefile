# GNU make. `make run` serves the site locally; `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
PY_OK := import sys; assert sys.version_info >= (3, 12)
PY_MISSING := Python >= 3.12 is required (Django 6): install python3.12 or python3.13

# The interpreter that creates .venv: python3.13 or python3.12 on PATH, else a pyenv-installed
# 3.13.x or 3.12.x. Every candidate is run once, because a pyenv shim exists on PATH even when it
# points at no installed version and then fails. Deferred (=) so that it is only looked up when
# .venv has to be built; `make PYTHON=/path/to/python3.12 ...` overrides it.
ifndef PYTHON
PYTHON = $(shell \
  for c in python3.13 python3.12; do \
    p=$$(command -v $$c 2>/dev/null) && $$p -c '$(PY_OK)' >/dev/null 2>&1 && { echo $$p; exit 0; }; \
  done; \
  for r in $$(pyenv root 2>/dev/null) $${PYENV_ROOT:-} $$HOME/.pyenv; do \
    for p in $$(ls -d $$r/versions/3.13*/bin/python3 $$r/versions/3.12*/bin/python3 2>/dev/null \
                | sort -rV); do \
      $$p -c '$(PY_OK)' >/dev/null 2>&1 && { echo $$p; exit 0; }; \
    done; \
  done)
endif

.PHONY: help install .venv run test test-fast fmt bench

help:
	@echo "make run    install, migrate, create demo accounts, serve http://127.0.0.1:8000 (PORT=...)"
	@echo "make test   install, ruff check, ruff format --check, pytest"
	@echo "make test-fast  pytest without the slow tests (browser, services, workers): a minute"
	@echo "make fmt    ruff format + ruff check --fix"
	@echo "make bench  run bench/engine.py"

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@py='$(PYTHON)'; \
	  if [ -z "$$py" ] || ! "$$py" -c '$(PY_OK)' >/dev/null 2>&1; then \
	    echo "$(PY_MISSING)" >&2; exit 1; \
	  fi; \
	  echo "Creating $(VENV) with $$py ($$("$$py" --version))"; \
	  "$$py" -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes \
	  -r requirements-dev.txt
	@# The computer's compiled search into numba's on-disk cache: the first
	@# `python -m games.ai move`, worker or test after an install loads it instead of compiling
	@# (about 20 s); a later change to games/ai/mcts/ recompiles on first use.
	$(BIN)/python -c 'from games.ai import mcts; mcts.warm_up()'
	touch $@

install .venv: $(VENV)/.installed

PORT ?= 8000

# The dev server with a Celery worker and beat inside it, on a SQLite broker (DEV_WORKER=1, see
# games/management/commands/devserver.py): the computer plays outside the player's request.
run: $(VENV)/.installed
	$(BIN)/python -m config.catalogs compile
	$(BIN)/python manage.py migrate
	$(BIN)/python manage.py demo_accounts
	DEV_WORKER=1 $(BIN)/python manage.py devserver 127.0.0.1:$(PORT)

# pytest exits 5 when it collected no tests: that is a failure here too (make stops on any
# non-zero status; the message just says why).
test: $(VENV)/.installed
	$(BIN)/python -m config.catalogs compile
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@echo "$(BIN)/pytest -n 2"; \
	  $(BIN)/pytest -n 2; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; fi; \
	  exit $$rc

# For development: everything but the tests marked slow (pyproject.toml). CI runs `make test`.
test-fast: $(VENV)/.installed
	$(BIN)/pytest -n 2 -m "not slow"

fmt: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed
	$(BIN)/python bench/engine.py
