"""The table in a browser: a third presenter over bot/play, beside Discord and the terminal,
served by the bot itself (aiohttp) when WEB_PORT is set (bot/web/server.py), with the health
and metrics that monitoring asks for (bot/web/health.py)."""
