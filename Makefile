# Two commands on a fresh machine with Python ≥ 3.10 and make:
#   make demo   create .venv, install concord with what the demo needs, run it on bundled data
#   make test   create or reuse .venv, install the dev extras, run ruff, mypy and pytest
#   make docs   build the documentation site into site/ (offline, warnings as errors)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: demo test quick lint typecheck pytest browser bench screenshots docs clean fuzz

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall when the dependencies change; the package itself is editable.
$(VENV)/.demo-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[demo]"
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	$(PY) -m pip install --quiet "torch==2.13.0+cpu" || \
		echo "note: no CPU build of torch here; tests/test_array_api.py's torch tests will skip"
	touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	@echo "== Fleiss (1971): 30 patients, 6 psychiatrists, 5 diagnoses"
	$(BIN)/concord agree data/fleiss1971_diagnoses.csv --id patient
	@echo
	@echo "== Krippendorff (2011): 12 units, 4 observers, missing values, interval metric"
	$(BIN)/concord agree data/krippendorff2011.csv --id unit --weights quadratic
	@echo
	@echo "== essays (demo/make_essays.py): three human raters, quadratic weights"
	$(BIN)/concord agree data/essays.csv --raters rater1,rater2,rater3 --weights quadratic
	@echo
	@echo "== essays: true grade vs the model's grade"
	$(BIN)/concord kappa data/essays.csv --rater1 truth --rater2 model_grade --weights quadratic
	@echo
	@echo "== essays: the cut points of the model's score that maximise QWK"
	$(BIN)/concord thresholds data/essays.csv --truth truth --score model_score --seed 0
	@echo
	@echo "== seed 003: gold standard vs model 1, ordered sentiment, linear weights"
	$(BIN)/concord kappa data/seed_sentiment.csv --rater1 gold_standard --rater2 model_1 \
		--weights linear --labels negative,neutral,positive --format markdown
	@echo
	@echo "== the HTML report of the essay raters"
	$(BIN)/concord report data/essays.csv --raters rater1,rater2,rater3 --weights quadratic \
		--title "Essay scoring: three human raters" -o demo/report.html --overwrite

# The pictures in docs/images/, made by the project's own commands (needs `make test`'s setup).
screenshots: $(VENV)/.dev-installed browser
	$(PY) demo/screenshots.py

# The site runs every page's examples while it builds (docs/hooks/execute.py); the dev extras
# hold the docs extra.
docs: $(VENV)/.dev-installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks demo docs/hooks
	$(BIN)/ruff format --check src tests benchmarks demo docs/hooks

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

# The report's browser test needs Debian's chromium and chromium-driver: install them when
# missing (as root, or through sudo).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
		echo "== installing Debian's chromium and chromium-driver for the browser test"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver \
			>/dev/null; \
	fi

# The suite runs in two processes (pytest-xdist; the machines here have 2 cores), each test
# file in one of them; `make quick` leaves out the slow tests (fresh venvs per extra, the
# docs site's build) for development.
JOBS ?= 2
pytest: $(VENV)/.dev-installed browser
	CONCORD_REQUIRE_BROWSER=1 $(BIN)/pytest -n $(JOBS) --dist loadfile

quick: $(VENV)/.dev-installed
	$(BIN)/pytest -n $(JOBS) --dist loadfile -m "not slow" --deselect tests/test_docs.py -q

test: lint typecheck pytest

# The differential test's full run (tests/differential/): about 2,000 seeded random data sets
# against Fraction recomputations and the peers (make test runs a quick slice of it). The
# irrCAC port pins an old numpy, so it goes in with --no-deps, as for make bench.
fuzz: $(VENV)/.dev-installed
	$(PY) -m pip install --quiet --no-deps "irrCAC==0.4.4"
	CONCORD_FUZZ=1 $(BIN)/pytest tests/differential -q

$(VENV)/.bench-installed: pyproject.toml $(VENV)/.dev-installed
	$(PY) -m pip install --quiet -e ".[bench]"
	$(PY) -m pip install --quiet --no-deps "irrCAC==0.4.4"
	# torchmetrics only beside the CPU build of torch that make test installs (else it would
	# pull a multi-GB CUDA build); bench_gpu.py reports it missing otherwise
	$(PY) -c "import torch" 2>/dev/null && $(PY) -m pip install --quiet "torchmetrics>=1.0" || true
	touch $@

bench: $(VENV)/.bench-installed
	$(PY) benchmarks/bench_kappa.py
	$(PY) benchmarks/bench_inputs.py
	$(PY) benchmarks/bench_cold.py
	$(PY) benchmarks/bench_cli_small.py
	$(PY) benchmarks/bench_multirater.py
	$(PY) benchmarks/bench_inference.py
	$(PY) benchmarks/bench_thresholds.py
	$(PY) benchmarks/bench_stream.py
	$(PY) benchmarks/bench_ccc.py
	$(PY) benchmarks/bench_long.py
	$(PY) benchmarks/bench_dask.py
	$(PY) benchmarks/bench_continuous.py
	$(PY) benchmarks/bench_evaluate.py
	$(PY) benchmarks/bench_raters.py
	$(PY) benchmarks/bench_gpu.py --output benchmarks/results/array_api.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build site
