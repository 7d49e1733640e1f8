"""The table page (bot/web/static/) in a real Chromium, against FakeTable, its test double of the
server: it draws the state, drags with a mouse and a finger, taps, buttons, keys, typing, the
game's end, a dropped connection; screenshots at 1280 and 360 px wide for a person to look at.

Canfield deal 7 starts with t1 QC, t2 7S, t3 TC, t4 9H: `t4t3` (9H onto TC) is its only legal
move besides the draw, and QC onto 7S is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, Opener, Running, answered, drawn, keep_shot
from .fake_table import GERMAN, FakeTable

pytestmark = pytest.mark.asyncio(loop_scope="session")

async def page_cards(page: Any, pile: str) -> list[str]:
    """The face-up cards the page shows on `pile`, bottom to top."""
    return await page.eval_on_selector_all(f'[data-pile="{pile}"] [data-card]', "els => els.map(e => e.dataset.card)")


async def centre(page: Any, selector: str) -> tuple[float, float]:
    box = await page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 20)


async def mouse_drag(page: Any, source: str, target: str) -> None:
    """Press on `source`, move in steps onto `target`, let go."""
    (x0, y0), (x1, y1) = await centre(page, source), await centre(page, target)
    await page.mouse.move(x0, y0)
    await page.mouse.down()
    await page.mouse.move(x1, y1, steps=8)
    await page.mouse.up()


def visible_face_up(fake: FakeTable) -> set[str]:
    """The face-up cards the page should show: a `down` pile's every card, a waste's top three,
    another pile's top card."""
    shown = set()
    for pile in fake.state("")["game"]["piles"]:
        cards = pile["cards"] if pile["fan"] == "down" else pile["cards"][-3:] if pile["fan"] == "right3" \
            else pile["cards"][-1:]
        shown.update(card for card in cards if card != "??")
    return shown


async def test_draws_every_pile_and_face_up_card(open_page: Opener, table: Running) -> None:
    page = await open_page()
    piles = await page.eval_on_selector_all("[data-pile]", "els => els.map(e => e.dataset.pile)")
    assert sorted(piles) == sorted(pile["name"] for pile in table.fake.state("")["game"]["piles"])
    cards = await page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
    assert sorted(cards) == sorted(visible_face_up(table.fake))
    assert await page_cards(page, "t4") == ["9H"]
    where = "els => els.map(e => e.style.backgroundPosition)"
    faces = await page.eval_on_selector_all("[data-card]", where)
    empty = await page.eval_on_selector_all(".empty", where)
    assert len(set(faces)) == len(cards) and empty and not set(faces) & set(empty)  # each card its own sprite
    assert await page.inner_text("#title") == "Canfield"
    line = table.fake.state("")["game"]["line"]  # "Canfield · deal #7 · score -12 · stock 34"
    assert await page.inner_text("#label") == line.removeprefix("Canfield · ")
    assert await page.inner_text('button[data-action="draw"]') == "Draw"
    assert await page.get_attribute("#notation", "placeholder") == "Type moves, such as wt4"
    assert await page.get_attribute("#said", "aria-live") == "polite"
    assert await page.is_disabled('button[data-action="undo"]')  # nothing to take back yet


async def test_mouse_drag_of_a_legal_card_plays_it(open_page: Opener, table: Running) -> None:
    page = await open_page()
    (x0, y0), (x1, y1) = await centre(page, '[data-card="9H"]'), await centre(page, '[data-pile="t3"]')
    await page.mouse.move(x0, y0)
    await page.mouse.down()
    await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2 + 30, steps=4)
    lit = await page.eval_on_selector_all(".pile.target", "els => els.map(e => e.dataset.pile)")
    assert lit == ["t3"]  # the only pile a legal move takes 9H to
    await page.mouse.move(x1, y1, steps=4)
    await page.mouse.up()
    await answered(page, table.fake, 1)
    assert table.fake.received == [{"type": "move", "text": "t4t3"}]
    assert await page_cards(page, "t3") == ["TC", "9H"] == table.fake.game.piles()["t3"]
    assert await page_cards(page, "t4") == table.fake.game.piles()["t4"]  # refilled from the reserve
    assert await page.inner_text("#said") == "Played t4t3."
    assert await page.is_enabled('button[data-action="undo"]')


async def test_illegal_drag_is_refused_and_changes_nothing(open_page: Opener, table: Running) -> None:
    page = await open_page()
    before = await page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
    await mouse_drag(page, '[data-card="QC"]', '[data-pile="t2"]')
    await page.wait_for_function("() => document.querySelector('#said').textContent !== ''")
    assert table.fake.received == [{"type": "move", "text": "t1t2"}]
    assert "QC cannot go on 7S" in await page.inner_text("#said")
    assert table.fake.version == 0
    assert await page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)") == before
    assert await page.locator(".lifted").count() == 0  # the refused card is back in its place


async def test_a_drop_back_on_its_own_pile_sends_nothing(open_page: Opener, table: Running) -> None:
    page = await open_page()
    x, y = await centre(page, '[data-card="9H"]')
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 30, y + 40, steps=4)
    await page.mouse.move(x + 2, y + 2, steps=4)
    await page.mouse.up()
    assert await page.locator(".lifted, .ghost, .target").count() == 0
    assert table.fake.received == []


async def test_tap_a_card_then_a_pile(open_page: Opener, table: Running) -> None:
    page = await open_page()
    await page.click('[data-card="9H"]')
    assert await page.locator('[data-card="9H"].chosen').count() == 1
    assert await page.eval_on_selector_all(".pile.target", "els => els.map(e => e.dataset.pile)") == ["t3"]
    await page.click('[data-pile="t3"]')
    await answered(page, table.fake, 1)
    assert table.fake.received == [{"type": "move", "text": "t4t3"}]
    assert await page_cards(page, "t3") == ["TC", "9H"]
    await page.click('[data-pile="s"]')  # a tap on the stock draws
    await answered(page, table.fake, 2)
    assert table.fake.received[-1] == {"type": "move", "text": "d"}
    assert await page_cards(page, "w") == table.fake.game.piles()["w"][-3:] != []


async def test_touch_drag_on_a_phone(open_page: Opener, table: Running) -> None:
    page = await open_page(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    width = await page.evaluate("document.querySelector('#board').getBoundingClientRect().right")
    assert width <= PHONE["width"]  # the whole table fits the phone's width
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    (x0, y0), (x1, y1) = await centre(page, '[data-card="9H"]'), await centre(page, '[data-pile="t3"]')
    touch = await page.context.new_cdp_session(page)
    await touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 9):
        point = {"x": x0 + (x1 - x0) * step / 8, "y": y0 + (y1 - y0) * step / 8}
        await touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    await touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await answered(page, table.fake, 1)
    assert table.fake.received == [{"type": "move", "text": "t4t3"}]
    assert await page_cards(page, "t3") == ["TC", "9H"]


async def test_buttons_keys_and_typing(open_page: Opener, table: Running) -> None:
    page = await open_page()
    fake = table.fake
    await page.click('button[data-action="draw"]')
    await answered(page, fake, 1)
    assert await page_cards(page, "w") == fake.game.piles()["w"][-3:] != []
    await page.keyboard.press("u")
    await answered(page, fake, 2)
    assert await page_cards(page, "w") == []
    await page.keyboard.press("d")
    await answered(page, fake, 3)
    await page.keyboard.press("h")
    await page.wait_for_selector(".pile.hinted")
    assert fake.received[-1] == {"type": "action", "action": "hint"}
    await page.keyboard.press("a")
    await answered(page, fake, 5)
    assert await page.locator(".pile.hinted").count() == 0  # a hint shows until the next move
    assert [message.get("action") for message in fake.received] == ["draw", "undo", "draw", "hint", "auto"]
    await page.fill("#notation", "t1t2")
    await page.press("#notation", "Enter")
    await page.wait_for_function("() => document.querySelector('#said').textContent.includes('QC cannot go')")
    assert await page.input_value("#notation") == "t1t2"  # refused: kept, to mend
    await page.fill("#notation", "u")
    await page.press("#notation", "Enter")  # Enter sends what is typed, and a key typed there is no shortcut
    await answered(page, fake, 7)
    assert fake.received[-1] == {"type": "move", "text": "u"}
    assert await page.input_value("#notation") == ""

    # Tab reaches every button, then the input and Send, in that order
    await page.click("#title")  # Tab goes on from here, the top of the page
    reached = []
    for _ in range(8):
        await page.keyboard.press("Tab")
        reached.append(await page.evaluate("document.activeElement.dataset.action || document.activeElement.id"))
    enabled = [action for action in ("draw", "undo", "hint", "auto", "resign")
               if await page.is_enabled(f'button[data-action="{action}"]')]
    assert reached[:len(enabled) + 2] == [*enabled, "notation", "send"]


async def test_resigning_ends_the_game_cleanly(open_page: Opener, table: Running) -> None:
    page = await open_page()
    await page.click('button[data-action="resign"]')
    assert table.fake.received == []  # a first press only asks again
    assert await page.inner_text('button[data-action="resign"]') == "Resign?"
    await page.click('button[data-action="resign"]')
    await answered(page, table.fake, 1)
    assert await page.is_visible("#banner")
    assert await page.inner_text("#banner") == "This game is over."
    assert await page.evaluate("document.body.dataset.status") == "resigned"
    for action in ("draw", "undo", "hint", "auto", "resign"):
        assert await page.is_disabled(f'button[data-action="{action}"]')
    assert await page.is_disabled("#notation")
    await page.keyboard.press("d")
    await mouse_drag(page, '[data-card="9H"]', '[data-pile="t3"]')
    assert table.fake.received == [{"type": "action", "action": "resign"}]
    assert await page.locator(".ghost, .lifted").count() == 0


async def test_reconnects_after_the_socket_drops(open_page: Opener, table: Running) -> None:
    page = await open_page()
    await table.fake.drop()
    await page.wait_for_function("() => document.body.dataset.connected === 'no'")
    await page.wait_for_function("() => document.body.dataset.connected === 'yes'", timeout=5000)
    await mouse_drag(page, '[data-card="9H"]', '[data-pile="t3"]')
    await answered(page, table.fake, 1)
    assert table.fake.received == [{"type": "move", "text": "t4t3"}]


async def test_first_load_is_small(open_page: Opener, table: Running) -> None:
    page = await open_page(goto=False)
    sizes: list[int] = []

    async def weigh(response: Any) -> None:
        sizes.append(len(await response.body()))

    page.on("response", weigh)
    await page.goto(table.url)
    await drawn(page, table.fake)
    await page.wait_for_load_state("networkidle")
    assert len(sizes) >= 5  # the page, its CSS and JavaScript, the sprites' sheet and map
    assert sum(sizes) < 300 * 1024, sizes


async def test_screenshots(open_page: Opener, table: Running, tmp_path: Path) -> None:
    """The table after a few moves at 1280 and 360 px wide (at 360 in German, whose words are
    long), and a game's end: saved under the test's folder (and PE_SHOTS) for a person to look at."""
    fake = table.fake
    for text in ("t4t3", "d", "d", "d"):  # JH on the waste, which can go on t1 or t4
        fake.act({"type": "move", "text": text})
    fake.hint = "wt1"
    for name, viewport, options in (("table-1280.png", DESKTOP, {}),
                                    ("table-360-de.png", PHONE, {"has_touch": True, "is_mobile": True})):
        fake.words = GERMAN if "de" in name else fake.words
        page = await open_page(viewport=viewport, **options)
        await page.screenshot(path=tmp_path / name, full_page=True)
        keep_shot(tmp_path / name)
    x, y = await centre(page, '[data-pile="w"] [data-card]:last-child')
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 100, y + 110, steps=5)  # over t1, the piles it can go to lit
    await page.screenshot(path=tmp_path / "table-360-drag.png")
    keep_shot(tmp_path / "table-360-drag.png")
    await page.mouse.move(x, y, steps=3)
    await page.mouse.up()
    fake.act({"type": "action", "action": "resign"})
    page = await open_page(viewport=PHONE, has_touch=True, is_mobile=True)
    await page.screenshot(path=tmp_path / "table-360-over.png", full_page=True)
    keep_shot(tmp_path / "table-360-over.png")
