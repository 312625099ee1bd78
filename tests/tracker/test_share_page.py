"""The players' page and what it is sent: names are text, never markup
(the page only ever sets textContent, the view is JSON in which no
character can break an event line), the page loads nothing from anywhere,
and the QR code drawn in the terminal is exactly segno's."""

from __future__ import annotations

import json
import re
from importlib.resources import files

import segno
from hypothesis import given
from hypothesis import strategies as st

from rules.text import visible
from tracker.share.feed import render
from tracker.share.qr import BORDER, half_blocks, matrix, qr_lines, read_back

PAGE = files("tracker.share").joinpath("page.html").read_text(encoding="utf-8")
(SCRIPT,) = re.findall(r"<script>(.*?)</script>", PAGE, re.DOTALL)
(STYLE,) = re.findall(r"<style>(.*?)</style>", PAGE, re.DOTALL)

PAYLOADS = st.sampled_from(
    [
        "<img src=x onerror=alert(1)>",
        "</script><script>alert(1)</script>",
        '"><svg onload=alert(1)>',
        "javascript:alert(1)",
        "{{constructor.constructor('alert(1)')()}}",
        "\u2028\u2029line\nbreaks\r",
        "data: {}\n\nevent: view",
        "\x1b]52;c;aGk=\x07",
    ]
)
NAMES = st.one_of(
    PAYLOADS, st.text(max_size=40), st.builds(lambda a, b: a + b, PAYLOADS, st.text())
)


def test_the_page_writes_text_never_markup() -> None:
    for sink in (
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "createContextualFragment",
        "DOMParser",
        "srcdoc",
        "setAttribute",
        "eval(",
        "Function(",
    ):
        assert sink not in SCRIPT, sink
    assert "textContent" in SCRIPT and "createTextNode" in SCRIPT


def test_the_page_loads_nothing_from_anywhere() -> None:
    lowered = PAGE.lower()
    for outside in (
        "http:",
        "https:",
        "src=",
        "href=",
        "<link",
        "<img",
        "<iframe",
        "@import",
        "url(",
    ):
        assert outside not in lowered, outside
    # its one script and one style are inline (the policy lets exactly them run)
    assert lowered.count("<script") == 1 and lowered.count("<style") == 1
    # and it asks only its own server, by relative path
    assert re.findall(r"(?:fetch|EventSource)\(\"([^\"]*)\"", SCRIPT) == ["view.json", "events"]


def test_the_page_says_reconnecting_while_the_stream_is_down() -> None:
    assert "reconnecting…" in SCRIPT
    assert 'new EventSource("events")' in SCRIPT


@given(st.lists(NAMES, max_size=6), NAMES)
def test_a_view_is_one_line_of_ascii_json_that_gives_back_every_name(
    names: list[str], title: str
) -> None:
    view = {"name": title, "combatants": [{"name": n, "conditions": [{"name": n}]} for n in names]}
    text = render(lambda: view)
    assert text.isascii()
    # no line break of any kind: an event's data line cannot be split or forged
    assert not any(ch in text for ch in "\r\n\x85\u2028\u2029")
    back = json.loads(text)
    assert back["name"] == visible(title)
    assert [c["name"] for c in back["combatants"]] == [visible(n) for n in names]
    assert all("\x1b" not in c["name"] for c in back["combatants"])


def test_the_drawn_code_is_segnos_code_of_the_link() -> None:
    url = "http://192.168.178.100:8765/aKVhlt8vAFqLPG75Y1ksHg/"
    modules = matrix(url)
    code = segno.make(url, error="l", micro=False)
    assert len(modules) == code.symbol_size(border=BORDER)[1]
    drawn = qr_lines(url)
    assert len(drawn) == (len(modules) + 1) // 2 and len(drawn) <= 17  # fits a 60x20 dialog
    assert read_back(drawn)[: len(modules)] == modules
    assert all(not any(row) for row in modules[:BORDER])  # the quiet zone is light


def test_an_odd_row_count_is_paired_with_a_light_row() -> None:
    assert half_blocks([[True, False], [False, True], [True, True]]) == ["▀▄", "▀▀"]
