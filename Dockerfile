# Patient Exorcism: the Discord bot. Build: docker build -t patient-exorcism .
# Run:   docker run -d --env-file .env -v pe-data:/data patient-exorcism
# The games (SQLite) and the health file live on the /data volume.
#
# Two stages. The builder has gcc and the source: it builds the project's wheel, with the solver's C
# search (bot/game/_solver_core.c) compiled in, and wheels of the pinned dependencies. The image
# installs those wheels into site-packages and keeps no compiler and no source tree: `python -m bot`
# then imports the installed package, with its compiled module. (A copy of the source in the
# working directory would come first on sys.path and shadow it: the bot would search in Python.)
# RUN --mount needs BuildKit, the default builder since Docker 23.

# One Python for both stages, pinned to its patch release (after changing it, `make lock`); the
# dependencies are pinned in requirements.lock (`make lock` after changing them in pyproject.toml).
ARG PYTHON_IMAGE=python:3.12.12-slim-bookworm

FROM ${PYTHON_IMAGE} AS builder
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
# The build tools first, in layers of their own: a change to the code reinstalls neither them nor
# the dependencies. The C search is optional to setuptools (a machine without a compiler installs
# the package and searches in Python), so the wheel is checked for it below.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN pip install setuptools==80.9.0
WORKDIR /build
COPY requirements.lock ./
RUN pip wheel --no-deps --wheel-dir /deps -r requirements.lock && cp requirements.lock /deps/
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY render ./render
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /wheels . \
    && if ! python -m zipfile -l /wheels/patient_exorcism-*.whl | grep 'bot/game/_solver_core\..*\.so' >/dev/null; then \
        echo "the wheel lacks the solver's C search (bot/game/_solver_core): did gcc fail?" >&2; exit 1; fi

FROM ${PYTHON_IMAGE}
# PYTHONSAFEPATH: `python -m bot` does not put the working directory first on sys.path, so no folder
# named bot there (the /data volume, a bind mount) can shadow the installed package.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONSAFEPATH=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

RUN useradd --create-home --uid 10001 exorcist \
    && mkdir -p /data \
    && chown exorcist:exorcist /data

# The wheels are mounted from the builder, not copied: they stay out of the image's layers.
# The dependencies first, so that a change to the code reuses this layer.
RUN --mount=type=bind,from=builder,source=/deps,target=/deps \
    pip install --no-index --find-links /deps -r /deps/requirements.lock
# Then the bot, owned by root (read-only to it); pip check: the pinned dependencies satisfy it;
# and the build fails unless the installed package searches in C.
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-index --no-deps /wheels/patient_exorcism-*.whl \
    && pip check \
    && python -c "from bot.game.solver import NATIVE; assert NATIVE, 'the installed bot searches in Python'"

USER exorcist
# The working directory holds no source: only the volume. The health file defaults to
# patient-exorcism.alive beside the database: /data here.
WORKDIR /data
ENV DATABASE_URL=sqlite:////data/patient-exorcism.sqlite3
VOLUME ["/data"]

# Healthy while the bot is connected. With WEB_PORT set (the web server on), `python -m bot health`
# asks the bot's GET /healthz on 127.0.0.1: healthy when the gateway is connected and the store
# answers. Without, it reads the health file the bot touches every 30 seconds while connected.
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 CMD ["python", "-m", "bot", "health"]

# docker stop sends SIGTERM: the bot closes the store and its drawing processes, then exits.
# At start it logs which search the solver runs: "the solver searches in C (...site-packages/...)".
CMD ["python", "-m", "bot"]
