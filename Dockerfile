# Patient Exorcism: the Discord bot. Build: docker build -t patient-exorcism .
# Run:   docker run -d --env-file .env -v pe-data:/data patient-exorcism
# The games (SQLite) and the health file live on the /data volume; the app folder is read-only to the bot.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 exorcist \
    && mkdir -p /data \
    && chown exorcist:exorcist /data

WORKDIR /app
# The dependencies first, in a layer of their own: a change to the source does not reinstall them.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; project = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print('\n'.join(project['dependencies'] + project['optional-dependencies']['speed']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY bot ./bot
COPY render ./render
# gcc builds the solver's C search (optional: without it the solver searches in Python).
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install --no-deps . \
    && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/*

USER exorcist
# The health file defaults to patient-exorcism.alive beside the database: /data here.
ENV DATABASE_URL=sqlite:////data/patient-exorcism.sqlite3
VOLUME ["/data"]

# Healthy while the bot is connected: it touches its health file every 30 seconds.
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 CMD ["python", "-m", "bot", "health"]

# docker stop sends SIGTERM: the bot closes the store and its drawing processes, then exits.
CMD ["python", "-m", "bot"]
