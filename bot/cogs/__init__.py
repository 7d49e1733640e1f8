"""Slash commands and text moves: thin adapters onto bot.play, a cog per feature."""
