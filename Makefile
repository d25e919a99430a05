# pymem: the two commands are `make demo` and `make test`; both install first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install demo test lint snapshot clean

install: $(STAMP)

# torch first and pinned, so that pip takes the CPU build and not the CUDA one.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: install
	$(BIN)/pymem demo

test: install
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check pymem tests migrations
	$(BIN)/ruff format --check pymem tests migrations
	$(BIN)/mypy
	$(BIN)/sqlfluff lint sql

# Re-write tests/expected/catalog.txt after an intended change to policies, grants or functions.
snapshot: install
	PYMEM_UPDATE_SNAPSHOT=1 $(BIN)/pytest tests/test_audit.py::test_catalog_matches_the_checked_in_snapshot

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
