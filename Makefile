# Two commands on a fresh machine with Python 3.11+: `make run` and `make test`.
# Each creates .venv and installs the project into it when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test play bench clean lock bundle

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
	$(BIN)/pyright
	$(BIN)/python -m pytest

bench: $(BIN)/activate
	$(BIN)/python -m benchmarks.engine && $(BIN)/python -m benchmarks.render && $(BIN)/python -m benchmarks.moves

# requirements.lock, the Docker image's pinned dependencies: resolved afresh in the image's Python
# (the Dockerfile's PYTHON_IMAGE), its comment lines kept. Needs Docker.
PYTHON_IMAGE = $(shell sed -n 's/^ARG PYTHON_IMAGE=//p' Dockerfile)
lock:
	docker run --rm -v "$(CURDIR)":/src:ro $(PYTHON_IMAGE) sh -c '\
	    cd /tmp && cp -r /src/pyproject.toml /src/README.md /src/bot /src/render . \
	    && pip install --quiet --root-user-action=ignore --disable-pip-version-check ".[speed]" >&2 \
	    && grep "^#" /src/requirements.lock && pip freeze --exclude patient-exorcism' > requirements.lock.new
	mv requirements.lock.new requirements.lock

# bot/web/static/activity.js, the table as a Discord Activity (web/activity/main.js and Discord's
# Embedded App SDK, bundled by esbuild; both versions pinned in web/activity/package-lock.json).
# Needs node and npm; the bot does not: the bundle is committed (tests/web/test_bundle.py checks it).
bundle:
	cd web/activity && npm ci --no-audit --no-fund && npm run --silent bundle

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
