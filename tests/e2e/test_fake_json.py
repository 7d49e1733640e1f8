"""The fake's JSON (orjson, with json where orjson differs) reads and writes what json does."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from tests.e2e.fakediscord import from_json, to_json


@pytest.mark.parametrize("text", [
    '{"id": "1100000000000000001", "type": 4, "data": {"content": "h\\u00e9llo", "flags": 64}}',
    '{"a": 12345678901234567890123}',  # past 64 bits: orjson would read a float
    '[-9223372036854775809, 18446744073709551616]',
    '[-9223372036854775808, 18446744073709551615, 9223372036854775807]',
    '{"custom_id": "pe:1234567890123456789012:draw"}',  # looks like a long number, in a string
    '12345678901234567890',
    '[NaN, Infinity, -Infinity]',  # json reads them; orjson does not
    '"\\ud800"',  # a lone surrogate
    '{"a": 1, "a": 2}',
    '[1e400, -0.0, -0, 0.1, 1E5]',
    ' {"nested": [[{"x": [null, true, false]}]]} ',
])
def test_it_reads_what_json_reads(text: str) -> None:
    expected = json.loads(text)
    got = from_json(text)
    assert repr(got) == repr(expected)  # repr: tells 1 from 1.0, and NaN equals itself
    assert [type(v) for v in got] == [type(v) for v in expected] if isinstance(got, list) else True


@pytest.mark.parametrize("text", ['{"a": 1,}', "[1, 2", '"\x01"', "", "{'a': 1}"])
def test_it_refuses_what_json_refuses(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises(json.JSONDecodeError):
        from_json(text)


@dataclass
class Point:
    x: int


@pytest.mark.parametrize("data", [
    {"id": "1", "content": "h\u00e9llo \u2028", "n": [1, 2.5, None, True], "big": 2**70, "neg": -(2**64)},
    {1: "an int key", "s": (1, 2)},
    [-0.0, 1e16, 5e-324],
])
def test_it_writes_what_json_reads_back_the_same(data: object) -> None:
    assert json.loads(to_json(data)) == json.loads(json.dumps(data))


def test_it_writes_infinities_and_nan_as_null_where_json_writes_no_json() -> None:
    assert json.loads(to_json([math.inf, -math.inf, math.nan])) == [None, None, None]


@pytest.mark.parametrize("data", [Point(1), {"when": datetime(2024, 1, 1, tzinfo=UTC)}, {"s": {1, 2}}])
def test_it_refuses_what_json_refuses_to_write(data: object) -> None:
    with pytest.raises(TypeError):
        json.dumps(data)
    with pytest.raises(TypeError):
        to_json(data)
