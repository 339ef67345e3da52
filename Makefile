# Two commands on a fresh machine with Python ≥ 3.10 and make:
#   make demo   create .venv, install concord with what the demo needs, run it on bundled data
#   make test   create or reuse .venv, install the dev extras, run ruff, mypy and pytest
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: demo test lint typecheck pytest bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall when the dependencies change; the package itself is editable.
$(VENV)/.demo-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[demo]"
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	@echo "== seed 003: gold standard vs model 1, ordered sentiment, quadratic weights"
	$(BIN)/concord kappa data/seed_sentiment.csv --rater1 gold_standard --rater2 model_1 \
		--weights quadratic --labels negative,neutral,positive
	@echo
	@echo "== seed 001: ISUP grades, actual vs predicted, quadratic weights"
	$(BIN)/concord kappa data/seed_panda.csv --rater1 actual --rater2 pred --weights quadratic
	@echo
	@echo "== essays (demo/make_essays.py): true grade vs the model's grade"
	$(BIN)/concord kappa data/essays.csv --rater1 truth --rater2 model_grade --weights quadratic

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks demo
	$(BIN)/ruff format --check src tests benchmarks demo

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

pytest: $(VENV)/.dev-installed
	$(BIN)/pytest

test: lint typecheck pytest

$(VENV)/.bench-installed: pyproject.toml $(VENV)/.dev-installed
	$(PY) -m pip install --quiet -e ".[bench]"
	$(PY) -m pip install --quiet --no-deps "irrCAC==0.4.4"
	touch $@

bench: $(VENV)/.bench-installed
	$(PY) benchmarks/bench_kappa.py
	$(PY) benchmarks/bench_multirater.py
	$(PY) benchmarks/bench_inference.py
	$(PY) benchmarks/bench_thresholds.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
