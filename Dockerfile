# Patient Exorcism: the Discord bot. Build: docker build -t patient-exorcism .
# Run:   docker run -d --env-file .env -v pe-data:/data patient-exorcism
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY render ./render
# gcc builds the solver's C search (optional: without it the solver searches in Python).
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install . \
    && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 exorcist \
    && mkdir -p /data \
    && chown exorcist:exorcist /data

USER exorcist
ENV DATABASE_URL=sqlite:////data/patient-exorcism.sqlite3 \
    HEALTH_FILE=/tmp/patient-exorcism.alive
VOLUME ["/data"]

# Healthy while the bot is connected: it touches HEALTH_FILE every 30 seconds.
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
