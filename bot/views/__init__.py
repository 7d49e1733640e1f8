"""Buttons and menus (discord.ui DynamicItems) and the answers they give: thin adapters onto bot.play."""
