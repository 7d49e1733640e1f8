"""Board images: `render(game, theme=..., highlight=...) -> PNG bytes`, with Pillow."""

from render.board import render, render_image
from render.race import PLAYER_COLOURS, render_race_board, render_race_table
from render.themes import THEMES

__all__ = ["PLAYER_COLOURS", "THEMES", "render", "render_image", "render_race_board", "render_race_table"]
