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

# Packages: with uv (pinned and hashed in requirements-uv.txt, about four times faster than pip)
# where a wheel of it exists for the machine, else with pip; either way every package is checked
# against requirements-dev.txt's hashes. Each step says what it does and how long it takes.
$(VENV)/.installed: requirements.txt requirements-dev.txt requirements-uv.txt
	@py='$(PYTHON)'; \
	  if [ -z "$$py" ] || ! "$$py" -c '$(PY_OK)' >/dev/null 2>&1; then \
	    echo "$(PY_MISSING)" >&2; exit 1; \
	  fi; \
	  echo "[setup 1/2] Creating $(VENV) with $$py ($$("$$py" --version))"; \
	  "$$py" -m venv $(VENV)
	@echo "[setup 2/2] Installing the Python packages (about 30 s with uv, 1-2 min with pip)"
	@start=$$(date +%s); \
	  if $(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes \
	       -r requirements-uv.txt >/dev/null 2>&1; then \
	    $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python --require-hashes \
	      -r requirements-dev.txt; \
	  else \
	    echo "  (no uv for this machine: pip)"; \
	    $(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes \
	      -r requirements-dev.txt; \
	  fi; \
	  echo "  packages installed in $$(( $$(date +%s) - start )) s"
	@touch $@

# The computer's compiled search into numba's on-disk cache: the first `python -m games.ai move`,
# worker or test after it loads the cache instead of compiling (about 20 s); a later change to
# games/ai/mcts/ recompiles on first use. `make test` waits for it (every test worker would
# compile otherwise); `make run` runs it beside the server (the first computer turn waits for it).
WARM_UP := from games.ai import mcts; mcts.warm_up()

$(VENV)/.warm: $(VENV)/.installed
	@echo "Compiling the computer's search (about 20 s, once)"
	@$(BIN)/python -c '$(WARM_UP)'
	@touch $@

install .venv: $(VENV)/.installed $(VENV)/.warm

PORT ?= 8000

# The dev server with a Celery worker and beat inside it, on a SQLite broker (DEV_WORKER=1, see
# games/management/commands/devserver.py): the computer plays outside the player's request.
# `devserver --prepare` migrates and creates the demo accounts in the same process before serving.
run: $(VENV)/.installed
	@mkdir -p out
	@if [ ! -f $(VENV)/.warm ]; then \
	  echo "Compiling the computer's search in the background (about 20 s; out/warm-up.log)"; \
	  ( $(BIN)/python -c '$(WARM_UP)' && touch $(VENV)/.warm ) >out/warm-up.log 2>&1 & \
	fi
	@echo "Translations, database and demo accounts, then the server"
	@$(BIN)/python -m config.catalogs compile
	DEV_WORKER=1 $(BIN)/python manage.py devserver --prepare 127.0.0.1:$(PORT)

# The 15 slowest tests are listed at the end of every run (the suite should stay near ten
# minutes on two cores). pytest exits 5 when it collected no tests: that is a failure here too
# (make stops on any non-zero status; the message just says why).
test: $(VENV)/.installed $(VENV)/.warm
	$(BIN)/python -m config.catalogs compile
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@echo "$(BIN)/pytest -n 2 --durations=15"; \
	  $(BIN)/pytest -n 2 --durations=15; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; fi; \
	  exit $$rc

# For development: everything but the tests marked slow (pyproject.toml). CI runs `make test`.
test-fast: $(VENV)/.installed $(VENV)/.warm
	$(BIN)/pytest -n 2 -m "not slow"

fmt: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed
	$(BIN)/python bench/engine.py
