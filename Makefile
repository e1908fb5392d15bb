# dogfight: `make run` plays a battle, `make test` runs every check.
# Works from a fresh clone: only python3 (3.11+) is needed, and PyPI for the packages.
# Nothing is activated; every tool runs from $(VENV)/bin.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check

.DEFAULT_GOAL := help
.PHONY: help run test lint bench clean distclean

help:
	@echo "make run        play a full carrier-strike battle (seed 1) and print its log"
	@echo "make test       ruff, mypy and pytest (installs the test tools)"
	@echo "make lint       ruff (checks and format) and mypy only"
	@echo "make bench      battles/s and actions/s on the built-in scenarios"
	@echo "make clean      remove caches and build output (keeps $(VENV))"
	@echo "make distclean  clean, and remove $(VENV)"

# The virtual environment, created once.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "dogfight needs Python 3.11 or newer; try: make PYTHON=python3.11 ..." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV) || \
	  { rm -rf $(VENV); echo "could not create $(VENV) (Debian/Ubuntu: apt install python3-venv)" >&2; exit 1; }

# The package (editable) and, for tests, its test extras; redone when pyproject.toml changes.
$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(PIP) install --quiet -e .
	@touch $@

$(VENV)/.installed-test: $(BIN)/python pyproject.toml
	$(PIP) install --quiet -e '.[test]'
	@touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/dogfight battle carrier-strike --seed 1

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The tests run on every core (pytest-xdist; `make test PYTEST_JOBS=0` runs them in one
# process). worksteal: an idle worker takes tests queued on a busy one, so a few slow
# tests do not leave a core idle at the end.
PYTEST_JOBS ?= auto

test: lint
	$(BIN)/pytest -n $(PYTEST_JOBS) --dist worksteal

bench: $(VENV)/.installed
	$(BIN)/dogfight bench

clean:
	rm -rf build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find src tests -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
