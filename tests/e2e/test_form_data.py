"""The fake's multipart reading (`split_form_data`) against aiohttp's multipart reader, which it
stands in for: the same parts wherever it reads a body, and the reader's answer wherever not."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json

import aiohttp
import pytest
from aiohttp.base_protocol import BaseProtocol
from aiohttp.http_exceptions import HttpProcessingError
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.e2e.fakediscord import FakeDiscord, FormField, read_form_data, split_form_data

BOUNDARY = "b0undary"
CONTENT_TYPE = f"multipart/form-data; boundary={BOUNDARY}"


async def by_aiohttp(body: bytes, content_type: str = CONTENT_TYPE) -> list[FormField]:
    """The parts aiohttp's reader finds in the body (`read_form_data` on a body that
    `split_form_data` would not take)."""
    protocol = BaseProtocol(asyncio.get_running_loop())
    headers = {"Content-Type": content_type}
    if split_form_data(body, content_type) is None:
        return await read_form_data(headers, body, protocol)
    # Make split_form_data give up (a preamble), so that aiohttp's reader reads the same parts.
    return await read_form_data(headers, b"preamble\r\n" + body, protocol)


async def discord_body(payload: dict[str, object], files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    """A body as discord.py sends it (aiohttp's FormData: payload_json, then files[n]) and its Content-Type."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload))
    for index, (name, data) in enumerate(files):
        form.add_field(f"files[{index}]", io.BytesIO(data), filename=name, content_type="application/octet-stream")
    writer = form()
    return await writer.as_bytes(), writer.content_type


def raw_body(*parts: bytes, end: bytes = b"--\r\n") -> bytes:
    """A body of these parts (each its headers, a blank line and its data), by hand."""
    delimiter = b"--" + BOUNDARY.encode()
    return b"".join(delimiter + b"\r\n" + part + b"\r\n" for part in parts) + delimiter + end


async def test_several_files_with_line_breaks_and_dashes_inside_read_as_aiohttp_reads_them() -> None:
    files = [("board.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256))), ("b \u00e9\".txt", b"a\r\n--b0undar\r\n"),
             ("empty.bin", b""), ("crlf.bin", b"\r\n"), ("semi;colon.txt", b"--" + BOUNDARY.encode() + b"x")]
    body, content_type = await discord_body({"content": "h\u00e9llo", "attachments": []}, files)
    fields = split_form_data(body, content_type)
    assert fields is not None
    assert fields == await by_aiohttp(body, content_type)
    assert [(f.name, f.filename, f.data) for f in fields[1:]] == [
        (f"files[{index}]", name, data) for index, (name, data) in enumerate(files)]
    assert json.loads(fields[0].text()) == {"content": "h\u00e9llo", "attachments": []}


@settings(max_examples=60, deadline=None)
@given(files=st.lists(st.tuples(st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), min_size=1),
                                st.binary() | st.sampled_from([b"\r\n", b"\r\n--", b"--b0undary", b"\r\n\r\n"])),
                      min_size=1, max_size=4),
       content=st.text(max_size=50))
def test_any_files_read_as_aiohttp_reads_them(files: list[tuple[str, bytes]], content: str) -> None:
    async def check() -> None:
        body, content_type = await discord_body({"content": content}, files)
        fields = split_form_data(body, content_type)
        assert fields is not None and fields == await by_aiohttp(body, content_type)
        assert [f.data for f in fields[1:]] == [data for _, data in files]

    asyncio.run(check())


@pytest.mark.parametrize("body", [
    raw_body(b'Content-Disposition: form-data; name="content"\r\nContent-Type: text/plain; charset=latin-1\r\n\r\n'
             b"\xe9t\xe9"),
    raw_body(b"\r\nno headers at all"),  # a part without a name
    raw_body(b'content-disposition:form-data; name="a"  \r\n\r\n',
             b'CONTENT-DISPOSITION: form-data; name="b"\r\n\r\nB'),
    raw_body(b'Content-Disposition: form-data; name="files[0]"; filename*=utf-8\'\'caf%C3%A9.png\r\n\r\nPNG'),
    raw_body(b'Content-Disposition: form-data; name="x"\r\n\r\n', end=b"--"),  # no CRLF after the last boundary
    raw_body(b'Content-Disposition: form-data; name="x"\r\n\r\nX', end=b"--\r\nan epilogue"),
])
async def test_plain_bodies_read_as_aiohttp_reads_them(body: bytes) -> None:
    fields = split_form_data(body, CONTENT_TYPE)
    assert fields is not None and fields == await by_aiohttp(body)


@pytest.mark.parametrize("body", [
    b"a preamble\r\n" + raw_body(b'Content-Disposition: form-data; name="a"\r\n\r\nA'),
    raw_body(b'Content-Disposition: form-data; name="a"\r\nContent-Transfer-Encoding: base64\r\n\r\nQUJD'),
    raw_body(b'Content-Disposition: form-data; name="_charset_"\r\n\r\nlatin-1',
             b'Content-Disposition: form-data; name="a"\r\n\r\n\xe9'),
    raw_body(b'Content-Disposition: form-data; name="a"\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n'
             b"--inner--"),
    raw_body(b'Content-Disposition: form-data; name="a"\r\n\r\nA', end=b"  \r\n"),  # blanks after a boundary
])
async def test_bodies_it_leaves_to_aiohttp(body: bytes) -> None:
    assert split_form_data(body, CONTENT_TYPE) is None
    with contextlib.suppress(Exception):  # aiohttp reads it, or raises: the fake answers as it did before
        await by_aiohttp(body)


@pytest.mark.parametrize("body", [
    raw_body(b'Content-Disposition: form-data; name="a"\r\n\r\nA', end=b""),  # no closing boundary
    raw_body(b'Content-Disposition: form-data; name="a"\r\n\r\nA')[:-20],  # cut in the middle of a part
    raw_body(b'Content-Disposition: form-data; name="a"\r\n\r\nA', end=b"XYZ\r\n"),  # a bad boundary line
    raw_body(b'Content-Disposition: form-data; name="a"\r\nbroken header\r\n\r\nA'),
    b"",
])
async def test_malformed_bodies_are_refused_as_aiohttp_refuses_them(body: bytes) -> None:
    assert split_form_data(body, CONTENT_TYPE) is None
    with pytest.raises((ValueError, HttpProcessingError)):
        await read_form_data({"Content-Type": CONTENT_TYPE}, body, BaseProtocol(asyncio.get_running_loop()))


def test_a_content_type_without_boundary_is_left_to_aiohttp() -> None:
    body = raw_body(b'Content-Disposition: form-data; name="a"\r\n\r\nA')
    assert split_form_data(body, "multipart/form-data") is None
    assert split_form_data(body, f"multipart/mixed; boundary={BOUNDARY}") is None


async def test_the_fake_stores_the_files_of_a_body_read_either_way(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    plain, content_type = await discord_body({"content": "plain"}, [("a.bin", b"A\r\n--"), ("b.bin", b"")])
    with_preamble = b"a preamble\r\n" + plain
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        for body in (plain, with_preamble):
            async with http.post(url, data=body, headers={"Content-Type": content_type}) as response:
                assert response.status == 200
                message = fake.messages[int((await response.json())["id"])]
            assert message.content == "plain"
            assert [(a.filename, a.data) for a in message.attachments] == [("a.bin", b"A\r\n--"), ("b.bin", b"")]
        broken = plain[:-10]
        async with http.post(url, data=broken, headers={"Content-Type": content_type}) as response:
            assert response.status == 500  # as when aiohttp's reader read every body
