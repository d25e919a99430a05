# pymem: the two commands are `make demo` and `make test`; both install first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install demo test lint snapshot eval bench bench-100k docs-figures stress dist clean

install: $(STAMP)

# torch first and pinned, so that pip takes the CPU build and not the CUDA one.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -c 'import pymem_dev'  # the development tooling (bench, eval, stress), not in the wheel
	$(BIN)/pymem model prepare --variant all
	$(BIN)/pymem model prepare --model mpnet --variant qint8
	@# the browser of tests/test_dashboard.py (which says why it skips when there is none): Debian's chromium, as root
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then apt-get update -qq && apt-get install -y -qq chromium || echo "make install: chromium not installed; the dashboard's browser tests will skip"; fi
	touch $(STAMP)

demo: install
	$(BIN)/pymem demo

# Two pytest-xdist workers, a test file each at a time (its module fixtures once): the suite waits on processes,
# servers and the database more than it computes, so on 2 cores it takes about 7 minutes instead of 13.
TEST_WORKERS ?= 2
test: install
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile

# Quality figures: the golden dataset (eval/) and, when it is there, BEIR SciFact. Writes eval/results.json.
SCIFACT ?= ../shared/data/scifact
eval: install
	$(BIN)/pymem eval --json eval/results.json $(if $(wildcard $(SCIFACT)/corpus.jsonl),--beir $(SCIFACT))

# Speed figures (under 15 minutes on 2 cores). Writes bench/results.json and bench/results.md.
# First the bytecode that pip writes when it installs pymem: where PYTHONDONTWRITEBYTECODE is set, every `pymem serve`
# the bench spawns (its first-call figure) would compile pymem from source again, 50-80 ms no installed copy pays.
bench: install
	$(BIN)/python -m compileall -q pymem pymem_dev
	$(BIN)/pymem bench --json bench/results.json --markdown bench/results.md

# The targets set at 100k memories per tenant (3 tenants x 10k and 100k; about 7 minutes on 2 cores).
bench-100k: install
	$(BIN)/python -m compileall -q pymem pymem_dev
	$(BIN)/pymem bench --scale 100k --json bench/results-100k.json --markdown bench/results-100k.md

# The figures of README.md and docs/evaluation.md, rewritten from eval/results.json and bench/results*.json
# (only between their <!-- figures:... --> markers); tests/test_docs_figures.py fails while they differ.
docs-figures: install
	$(BIN)/python tools/docs_figures.py

# Load (about 3 minutes): 4 tenants x 2 MCP sessions on `pymem serve --transport http` (127.0.0.1), 30% writes,
# for 150 s. Writes stress/results.json and stress/results.md; exits 1 on a foreign id or a growing RSS.
stress: install
	$(BIN)/pymem stress --json stress/results.json --markdown stress/results.md

lint: install
	$(BIN)/ruff check pymem pymem_dev tools tests migrations
	$(BIN)/ruff format --check pymem pymem_dev tools tests migrations
	$(BIN)/mypy
	$(BIN)/sqlfluff lint sql

# The wheel and the sdist of the pymem-pg distribution, into dist/, offline (hatchling comes with the dev extra).
dist: install
	rm -f dist/pymem_pg-*
	$(BIN)/python -m pip wheel --quiet --no-deps --no-build-isolation -w dist .
	$(BIN)/python -m hatchling build -t sdist -d dist
	@ls -l dist/pymem_pg-*

# Re-write tests/expected/catalog.txt after an intended change to policies, grants or functions.
snapshot: install
	PYMEM_UPDATE_SNAPSHOT=1 $(BIN)/pytest tests/test_audit.py::test_catalog_matches_the_checked_in_snapshot

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
