"""The bot's web server (aiohttp, on WEB_PORT): its health and metrics (bot/web/health.py)."""
