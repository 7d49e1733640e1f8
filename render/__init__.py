"""Board images: `render(game, theme=..., highlight=...) -> PNG bytes`, with Pillow."""

from render.board import render, render_image
from render.themes import THEMES

__all__ = ["THEMES", "render", "render_image"]
