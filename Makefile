# Two commands on a fresh machine with Python 3.11+: `make run` and `make test`.
# Each creates .venv and installs the project into it when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test play bench clean

$(BIN)/activate: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,speed]'
	touch $(BIN)/activate

run: $(BIN)/activate
	$(BIN)/python -m bot

play: $(BIN)/activate
	$(BIN)/python -m bot play $(GAME)

test: $(BIN)/activate
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(BIN)/activate
	$(BIN)/python -m benchmarks.engine && $(BIN)/python -m benchmarks.render && $(BIN)/python -m benchmarks.moves

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
