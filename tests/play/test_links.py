"""Signed tokens of the web table (bot/play/links.py): an Activity's session is bound to its member,
game and Activity instance, and to nothing else."""

from __future__ import annotations

import pytest

from bot.play.errors import BadLink
from bot.play.links import SESSION_SECONDS, make_activity_session, read_activity_session, read_session

SECRET, NOW = "s" * 43, 1_800_000_000.0


def test_an_activitys_session_opens_for_its_instance_only_and_until_it_expires() -> None:
    token = make_activity_session(SECRET, 7, 12, "fr", "i-123-gc-456", NOW)
    grant = read_activity_session(SECRET, token, "i-123-gc-456", NOW)
    assert (grant.member_id, grant.game_id, grant.language, grant.expires) == (7, 12, "fr", NOW + SESSION_SECONDS)
    assert "i-123" not in token  # signed in, not written
    for why, attempt in (("forged", lambda: read_activity_session(SECRET, token, "i-999-gc-456", NOW)),
                         ("forged", lambda: read_activity_session("t" * 43, token, "i-123-gc-456", NOW)),
                         ("forged", lambda: read_session(SECRET, token, NOW)),  # not a cookie's session
                         ("forged", lambda: read_activity_session(SECRET, token.replace(".12.", ".13."),
                                                                  "i-123-gc-456", NOW)),
                         ("expired", lambda: read_activity_session(SECRET, token, "i-123-gc-456",
                                                                   NOW + SESSION_SECONDS))):
        with pytest.raises(BadLink) as refused:
            attempt()
        assert refused.value.why == why
