"""The rating list readers on small literal files (ratings/parsers.py; no database).

The FIDE lines are the published samples (the combined list's header and Carlsen's, Ding's and
Nakamura's lines; a single list's header and three of its lines), in both of FIDE's layouts
and as XML; hostile files check the bounds and the refusals.
"""

from __future__ import annotations

import io
import zipfile

import pytest

from ratings import parsers
from ratings.parsers import ListedPlayer, ListError, read_list

COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
# FIDE's combined list (players_list_foa.txt), lines as published: 162 characters each.
COMBINED = [
    "1503014        Carlsen, Magnus                                              NOR M   GM    "
    "                       2823  0   10 2801  12  10 2860  0   10 1990      ",
    "8603677        Ding, Liren                                                  CHN M   GM    "
    "                       2723  11  10 2693  0   10 2736  0   10 1992      ",
    "2016192        Nakamura, Hikaru                                             USA M   GM    "
    "                       2792  0   10 2738  0   10 2800  0   10 1987      ",
]
SINGLE_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA JAN23 Gms K  B-day Flag"
)
# A single list (standard_rating_list.txt, January 2023): the month heads the rating column.
SINGLE = [
    "25121731       A C J John                                                   IND M       "
    "                         1063  0   40 1987  i",
    "5045886        A K, Kalshyan                                                IND M       "
    "                         1671  0   20 1964",
    "4804929        A-ALI, Sali Abbas Abdulzahra                                 IRQ F   WFM  "
    "WFM                     1876  13  20 2001  w",
]

CARLSEN = ListedPlayer(
    name="Carlsen, Magnus",
    fide_id="1503014",
    federation="NOR",
    sex="m",
    title="GM",
    birth_year=1990,
    standard=2823,
    rapid=2801,
    blitz=2860,
    standard_k=10,
    rapid_k=10,
    blitz_k=10,
)
DING = ListedPlayer(
    name="Ding, Liren",
    fide_id="8603677",
    federation="CHN",
    sex="m",
    title="GM",
    birth_year=1992,
    standard=2723,
    rapid=2693,
    blitz=2736,
    standard_k=10,
    rapid_k=10,
    blitz_k=10,
)
NAKAMURA = ListedPlayer(
    name="Nakamura, Hikaru",
    fide_id="2016192",
    federation="USA",
    sex="m",
    title="GM",
    birth_year=1987,
    standard=2792,
    rapid=2738,
    blitz=2800,
    standard_k=10,
    rapid_k=10,
    blitz_k=10,
)


def players(data: bytes | str, **options):  # type: ignore[no-untyped-def]
    raw = data.encode() if isinstance(data, str) else data
    opened = read_list(io.BytesIO(raw), **options)
    return list(opened.players), opened.tally


def text(*lines: str, ending: str = "\r\n") -> str:
    return ending.join(lines) + ending


def zipped(member: str, data: str | bytes, *more: tuple[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, data)
        for name, content in more:
            archive.writestr(name, content)
    return out.getvalue()


def placed(width: int, **at: tuple[int, str]) -> str:
    """A fixed-width line: each value written from its (0-based) column."""
    line = [" "] * width
    for column, value in at.values():
        line[column : column + len(value)] = value
    return "".join(line)


# FIDE TXT -----------------------------------------------------------------------------------


def test_the_combined_list_gives_every_field_and_three_ratings() -> None:
    found, tally = players(text(COMBINED_HEADER, *COMBINED))
    assert found == [CARLSEN, DING, NAKAMURA]
    assert tally.layout == "fide-txt"
    assert tally.ratings == {"standard", "rapid", "blitz"}
    assert (tally.lines, tally.players, tally.problems) == (3, 3, 0)


def test_a_single_list_has_the_month_in_its_header_and_one_rating() -> None:
    found, tally = players(text(SINGLE_HEADER, *SINGLE), filename="standard_rating_list.txt")
    assert found == [
        ListedPlayer(
            name="A C J John",
            fide_id="25121731",
            federation="IND",
            sex="m",
            birth_year=1987,
            standard=1063,
            standard_k=40,
            inactive=True,
        ),
        ListedPlayer(
            name="A K, Kalshyan",
            fide_id="5045886",
            federation="IND",
            sex="m",
            birth_year=1964,
            standard=1671,
            standard_k=20,
        ),
        ListedPlayer(
            name="A-ALI, Sali Abbas Abdulzahra",
            fide_id="4804929",
            federation="IRQ",
            sex="w",
            title="WFM",
            birth_year=2001,
            standard=1876,
            standard_k=20,
        ),
    ]
    assert tally.ratings == {"standard"}
    assert str(tally.period) == "2023-01-01"


@pytest.mark.parametrize(
    ("filename", "kind", "expected"),
    [
        ("rapid_rating_list.txt", None, "rapid"),
        ("blitz_jan23frl.txt", None, "blitz"),
        ("list.txt", None, "standard"),
        ("list.txt", "blitz", "blitz"),  # the director's word wins over the name
    ],
)
def test_a_single_list_s_rating_is_the_kind_its_file_name_or_the_director_says(
    filename: str, kind: str | None, expected: str
) -> None:
    found, tally = players(text(SINGLE_HEADER, SINGLE[1]), filename=filename, kind=kind)
    assert tally.ratings == {expected}
    assert getattr(found[0], expected) == 1671


def test_the_legacy_layout_without_the_foa_column_is_read_from_its_header() -> None:
    # FIDE's legacy combined list: no FOA column, so every rating starts four columns earlier.
    header = placed(
        158,
        id=(0, "ID Number"),
        name=(15, "Name"),
        fed=(76, "Fed"),
        sex=(80, "Sex"),
        tit=(84, "Tit"),
        wtit=(89, "WTit"),
        otit=(94, "OTit"),
        s=(109, "SRtng"),
        sg=(115, "SGm"),
        sk=(119, "SK"),
        r=(122, "RRtng"),
        rg=(128, "RGm"),
        rk=(132, "Rk"),
        b=(135, "BRtng"),
        bg=(141, "BGm"),
        bk=(145, "BK"),
        born=(148, "B-day"),
        flag=(154, "Flag"),
    ).rstrip()
    line = placed(
        158,
        id=(0, "1503014"),
        name=(15, "Carlsen, Magnus"),
        fed=(76, "NOR"),
        sex=(80, "M"),
        tit=(84, "GM"),
        s=(109, "2823"),
        sg=(115, "0"),
        sk=(119, "10"),
        r=(122, "2801"),
        rg=(128, "12"),
        rk=(132, "10"),
        b=(135, "2860"),
        bg=(141, "0"),
        bk=(145, "10"),
        born=(148, "1990"),
    )
    found, _ = players(text(header, line))
    assert found == [CARLSEN]


def test_a_line_whose_other_titles_overflow_into_the_next_column_is_read_shifted() -> None:
    # FIDE's real list has a few 163-character lines: "SI,FI,LSI,SLI,NAA" runs one column
    # into FOA and pushes the rest of the line one to the right.
    line = placed(
        163,
        id=(0, "1234567"),
        name=(15, "Arbiter, Busy"),
        fed=(76, "ESP"),
        sex=(80, "F"),
        otit=(94, "SI,FI,LSI,SLI,NAA"),
        s=(114, "1950"),
        r=(127, "1800"),
        b=(140, "1700"),
        born=(153, "1970"),
        flag=(159, "w"),
    )
    found, tally = players(text(COMBINED_HEADER, line, COMBINED[0]))
    assert found[0] == ListedPlayer(
        name="Arbiter, Busy",
        fide_id="1234567",
        federation="ESP",
        sex="w",
        birth_year=1970,
        standard=1950,
        rapid=1800,
        blitz=1700,
    )
    assert found[1] == CARLSEN and tally.problems == 0


@pytest.mark.parametrize(
    ("title", "woman_title", "expected"),
    [
        ("GM", "", "GM"),
        ("g", "", "GM"),  # FIDE's old codes
        ("wg", "", "WGM"),
        ("m", "wm", "IM"),
        ("", "WIM", "WIM"),  # a woman's title when she has no other
        ("IM", "WGM", "IM"),
        ("", "", ""),
    ],
)
def test_titles(title: str, woman_title: str, expected: str) -> None:
    line = placed(
        162,
        id=(0, "1"),
        name=(15, "Someone"),
        tit=(84, title),
        wtit=(89, woman_title),
        s=(113, "2400"),
    )
    found, _ = players(text(COMBINED_HEADER, line))
    assert found[0].title == expected


def test_line_endings_and_encodings_from_the_wild() -> None:
    windows = text(SINGLE_HEADER, SINGLE[1], ending="\r\n")
    unix = text(SINGLE_HEADER, SINGLE[1], ending="\n")
    assert players(windows)[0] == players(unix)[0]
    accented = placed(136, id=(0, "7"), name=(15, "Øye, Åsmund"), s=(113, "2100"))
    utf8, _ = players(text(SINGLE_HEADER, accented).encode("utf-8"))
    cp1252, _ = players(text(SINGLE_HEADER, accented).encode("cp1252"))
    assert utf8[0].name == cp1252[0].name == "Øye, Åsmund"


def test_the_zip_as_downloaded_reads_like_the_file_inside() -> None:
    bare, _ = players(text(COMBINED_HEADER, *COMBINED))
    inside, _ = players(zipped("players_list_foa.txt", text(COMBINED_HEADER, *COMBINED)))
    assert inside == bare == [CARLSEN, DING, NAKAMURA]


def test_a_byte_order_mark_before_the_header_is_read_past() -> None:
    found, _ = players(b"\xef\xbb\xbf" + text(COMBINED_HEADER, COMBINED[0]).encode())
    assert found == [CARLSEN]


def test_a_zip_damaged_inside_its_list_is_refused() -> None:
    data = bytearray(zipped("players_list_foa.txt", text(COMBINED_HEADER, *COMBINED * 200)))
    middle = len(data) // 2
    data[middle : middle + 40] = bytes(40)  # the compressed stream, broken half way
    with pytest.raises(ListError, match="the zip file is damaged"):
        players(bytes(data))


def test_the_zip_s_member_name_says_which_rating_a_single_list_holds() -> None:
    found, tally = players(zipped("blitz_rating_list.txt", text(SINGLE_HEADER, SINGLE[1])))
    assert tally.ratings == {"blitz"} and found[0].blitz == 1671


# FIDE XML -----------------------------------------------------------------------------------

XML_COMBINED = """<playerslist>
<player><fideid>1503014</fideid><name>Carlsen, Magnus</name><country>NOR</country><sex>M</sex>
<title>GM</title><w_title></w_title><o_title></o_title><foa_title></foa_title>
<rating>2823</rating><games>0</games><k>10</k><rapid_rating>2801</rapid_rating>
<rapid_games>12</rapid_games><rapid_k>10</rapid_k><blitz_rating>2860</blitz_rating>
<blitz_games>0</blitz_games><blitz_k>10</blitz_k><birthday>1990</birthday><flag></flag></player>
<player><fideid>88180085</fideid><name>Aadhira V</name><country>IND</country><sex>F</sex>
<title></title><w_title></w_title><o_title></o_title><foa_title></foa_title>
<rating>1415</rating><games>0</games><k>40</k><rapid_rating></rapid_rating><rapid_games>
</rapid_games><rapid_k></rapid_k><blitz_rating>0</blitz_rating><blitz_games></blitz_games>
<blitz_k></blitz_k><birthday>2011</birthday><flag>wi</flag></player>
</playerslist>
"""
AADHIRA = ListedPlayer(
    name="Aadhira V",
    fide_id="88180085",
    federation="IND",
    sex="w",
    birth_year=2011,
    standard=1415,
    standard_k=40,
    inactive=True,
)


def test_the_xml_list_gives_the_same_players_as_the_txt() -> None:
    found, tally = players(XML_COMBINED)
    assert found == [CARLSEN, AADHIRA]
    assert tally.layout == "fide-xml" and tally.ratings == {"standard", "rapid", "blitz"}


def test_a_single_xml_list_s_rating_is_its_own_kind() -> None:
    single = """<playerslist><player><fideid>25101242</fideid><name>Aadhiseshan K</name>
    <country>IND</country><sex>M</sex><title></title><w_title></w_title><rating>1607</rating>
    <games>0</games><k>40</k><birthday>2008</birthday><flag></flag></player></playerslist>"""
    found, tally = players(zipped("rapid_rating_list_xml.xml", single))
    assert tally.ratings == {"rapid"}
    assert found == [
        ListedPlayer(
            name="Aadhiseshan K",
            fide_id="25101242",
            federation="IND",
            sex="m",
            birth_year=2008,
            rapid=1607,
            rapid_k=40,
        )
    ]


def test_an_xml_list_is_read_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsers, "CHUNK_BYTES", 7)  # every element split across chunks
    found, _ = players(XML_COMBINED)
    assert found == [CARLSEN, AADHIRA]


# K, each rating's own (B.02 7.1.2 publishes it; 8.3.3 gives 40, 20, 10) ----------------------

# FIDE's legacy combined list (no FOA column) as published in 2015: the header and three lines
# verbatim from the sample shipped with the CPAN module Chess-FIDE (Roman M. Parparov, GPL or
# Artistic licence), metacpan/metacpan-cpan-extracted, distros/C/Chess-FIDE/t/data/
# test-list-2.txt, commit 54d5455007d18412a49ecd8a9549cf2f085d1454. A E M has K 40 in standard
# and 20 in rapid and blitz; Aaberg a standard rating (K 10) alone; A.lateef a blitz one alone.
LEGACY_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
LEGACY = [
    "10207538       A E M, Doshtagir                                             BAN M         "
    "                   1840  0   40 1836  0   20 1860  0   20 1974      ",
    "1701991        Aaberg, Anton                                                SWE M   IM    "
    "                   2393  0   10                           1972      ",
    "11201177       A.lateef, Ahmad                                              BRN M         "
    "                                             1897  0   20 0000      ",
]


def test_each_rating_keeps_its_own_k_from_the_txt_list() -> None:
    found, tally = players(text(LEGACY_HEADER, *LEGACY))
    assert tally.problems == 0
    assert [(p.standard, p.standard_k, p.rapid, p.rapid_k, p.blitz, p.blitz_k) for p in found] == [
        (1840, 40, 1836, 20, 1860, 20),
        (2393, 10, None, None, None, None),
        (None, None, None, None, 1897, 20),
    ]


def test_a_single_list_s_k_column_is_its_own_rating_s_k() -> None:
    found, _ = players(text(SINGLE_HEADER, *SINGLE), filename="blitz_rating_list.txt")
    assert [(p.blitz, p.blitz_k, p.standard_k) for p in found] == [
        (1063, 40, None),
        (1671, 20, None),
        (1876, 20, None),
    ]


def test_the_xml_list_keeps_k_beside_each_rating() -> None:
    found, _ = players(XML_COMBINED)
    assert [(p.standard_k, p.rapid_k, p.blitz_k) for p in found] == [(10, 10, 10), (40, None, None)]


@pytest.mark.parametrize(
    ("k", "kept"),
    [("0", None), ("", None), ("15", 15), ("40", 40)],  # 15: the K of lists before 2014
)
def test_a_k_of_0_or_blank_is_none(k: str, kept: int | None) -> None:
    line = placed(136, id=(0, "5045886"), name=(15, "A K, Kalshyan"), s=(113, "1671"), k=(123, k))
    found, tally = players(text(SINGLE_HEADER, line))
    assert found[0].standard_k == kept and tally.problems == 0


@pytest.mark.parametrize("k", ["41", "999", "1e9", "-5", "x"])
def test_a_k_past_40_or_not_a_number_makes_the_line_malformed(k: str) -> None:
    bad = placed(136, id=(0, "5045886"), name=(15, "A K, Kalshyan"), s=(113, "1671"), k=(123, k))
    found, tally = players(text(SINGLE_HEADER, bad, SINGLE[0]))
    assert [p.fide_id for p in found] == ["25121731"]
    assert tally.problems == 1 and "standard K" in str(tally.first_problems[0])
    xml = XML_COMBINED.replace("<k>10</k>", f"<k>{k}</k>")
    found, tally = players(xml)
    assert [p.name for p in found] == ["Aadhira V"] and tally.problems == 1


# Hostile files ------------------------------------------------------------------------------

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<playerslist><player><name>&lol2;</name></player></playerslist>"""
EXTERNAL_ENTITY = """<!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<playerslist><player><name>&x;</name></player></playerslist>"""


@pytest.mark.parametrize(
    ("data", "options", "message"),
    [
        pytest.param(
            text("Name;Elo", "Carlsen;2823"),
            {},
            "line 1: not a FIDE rating list",
            id="csv-without-mapping",
        ),
        pytest.param(
            text(COMBINED_HEADER.replace("Name", "Nom "), *COMBINED),
            {},
            "column for name",
            id="txt-header-without-name",
        ),
        pytest.param(
            text(
                COMBINED_HEADER.replace("SRtng", "Other")
                .replace("RRtng", "Other")
                .replace("BRtng", "Other"),
                *COMBINED,
            ),
            {},
            "no rating",
            id="txt-header-without-ratings",
        ),
        pytest.param(BILLION_LAUGHS, {}, "DOCTYPE and entities are refused", id="xml-bomb"),
        pytest.param(EXTERNAL_ENTITY, {}, "DOCTYPE and entities are refused", id="xml-external"),
        pytest.param(
            "<playerslist><player><name><b><i>x</i></b></name></player></playerslist>",
            {},
            "nests too deep",
            id="xml-nesting",
        ),
        pytest.param("<players><player/></players>", {}, "not <playerslist>", id="xml-root"),
        pytest.param(
            "<playerslist>\n<player><name>A</name></player>\n<player><name>B</name>",
            {},
            "line 3: not well-formed XML",
            id="xml-truncated",
        ),
        pytest.param(
            zipped("a.txt", "x", ("b.txt", "y")),
            {},
            "should hold one list",
            id="zip-two-lists",
        ),
        pytest.param(b"PK\x03\x04 not really a zip", {}, "not a readable zip", id="zip-broken"),
        pytest.param(
            text("Surname;Elo", "Carlsen;2823"),
            {"mapping": {"name": "Name"}},
            "no column 'Name' (the columns are: Surname, Elo)",
            id="csv-missing-column",
        ),
        pytest.param(
            text("Name;Elo", "Carlsen;2823"),
            {"mapping": {"name": "Name", "elo": "Elo"}},
            "unknown field 'elo'",
            id="csv-unknown-field",
        ),
        pytest.param(
            text("Name;Elo", "Carlsen;2823"),
            {"mapping": {"standard": "Elo"}},
            "needs the column of the name",
            id="csv-without-name",
        ),
        pytest.param(
            text("x" * 2000, "Carlsen;2823"),
            {"mapping": {"name": "1"}},
            "line 1: the header is longer than 1024 bytes",
            id="csv-header-too-long",
        ),
        pytest.param(
            text(SINGLE_HEADER, *SINGLE),
            {"kind": "correspondence"},
            "unknown rating kind",
            id="kind",
        ),
    ],
)
def test_a_wrong_file_is_refused_in_one_line(data, options, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ListError) as refused:
        players(data, **options)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_malformed_line_is_skipped_and_reported_with_its_number() -> None:
    hostile = [
        COMBINED[0][:15] + '=HYPERLINK("http://x")'.ljust(61) + COMBINED[0][76:],
        COMBINED[1][:113] + "28x3  " + COMBINED[1][119:],
        "1" * (1024 * 1024),  # a 1 MB line
        COMBINED[2][:76] + "N0R " + COMBINED[2][80:],
        COMBINED[1][:152] + "1066  " + COMBINED[1][158:],
    ]
    found, tally = players(text(COMBINED_HEADER, *hostile, COMBINED[0]))
    assert found == [CARLSEN]  # the good line after them, read as ever
    assert [str(p) for p in tally.first_problems] == [
        "line 2: '=HYPERLINK(\"http://x\")' is not a name",
        "line 3: standard rating '28x3' is not a number from 0 to 4000",
        "line 4: longer than 1024 bytes",
        "line 5: federation 'N0R' is not three letters",
        "line 6: birth year 1066 is not a year of birth",
    ]
    assert (tally.lines, tally.players, tally.problems) == (6, 1, 5)


def test_a_rating_of_two_to_the_fortieth_is_a_bad_line_not_an_overflow() -> None:
    xml = (
        "<playerslist><player><fideid>1</fideid><name>Big, Number</name>"
        f"<rating>{2**40}</rating></player></playerslist>"
    )
    found, tally = players(xml)
    assert found == []
    assert str(tally.first_problems[0]) == (
        "line 1: standard rating '1099511627776' is not a number from 0 to 4000"
    )


def test_a_megabyte_of_text_in_an_xml_field_skips_that_player_only() -> None:
    xml = (
        "<playerslist>\n<player><fideid>1</fideid><name>" + "A" * (1024 * 1024) + "</name>"
        "<rating>2000</rating></player>\n<player><fideid>2</fideid><name>Short, One</name>"
        "<rating>2100</rating></player></playerslist>"
    )
    found, tally = players(xml)
    assert [p.name for p in found] == ["Short, One"]
    assert str(tally.first_problems[0]) == "line 2: <name> is longer than 1024 characters"


def test_an_xml_player_without_a_name_is_skipped() -> None:
    xml = "<playerslist><player><fideid>419214</fideid><name></name></player></playerslist>"
    found, tally = players(xml)
    assert found == [] and str(tally.first_problems[0]) == "line 1: no name"


def test_a_list_unpacking_past_the_byte_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsers, "MAX_UNPACKED_BYTES", 400)
    monkeypatch.setattr(parsers, "CHUNK_BYTES", 100)
    with pytest.raises(ListError, match="unpacks to more than"):
        players(zipped("players_list_foa.txt", text(COMBINED_HEADER, *COMBINED)))
    with pytest.raises(ListError, match="unpacks to more than"):
        players(text(COMBINED_HEADER, *COMBINED))  # the bare file too


def test_a_list_with_more_players_than_the_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsers, "MAX_PLAYERS", 2)
    with pytest.raises(ListError, match="more than 2 players"):
        players(text(COMBINED_HEADER, *COMBINED))


def endless(member: str, piece: bytes, megabytes: int) -> bytes:
    """A zip of ``megabytes`` MB of ``piece`` repeated: a few kB that unpack to a lot."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive, archive.open(member, "w") as f:
        block = piece * (2**20 // len(piece))
        for _ in range(megabytes):
            f.write(block)
    return out.getvalue()


def _no_line_read(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise AssertionError("a line was read before the file was refused")


@pytest.mark.parametrize(
    ("data", "mapping", "message"),
    [
        pytest.param(
            zipped("list.csv", "name\n" + "x\n" * 60),
            {"name": "name"},
            "more than 50 players: refused (over 60 lines after the header)",
            id="red-team-lines-past-the-player-cap",
        ),
        pytest.param(
            endless("list.csv", b"\n", 8),
            {"name": "name"},
            "more than 50 players: refused (over 65,535 lines after the header)",  # a chunk
            id="blank-lines",
        ),
        pytest.param(
            zipped("list.xml", "<playerslist>" + "<player><name>A</name></player>" * 51),
            None,
            "more than 50 players: refused (over 51 <player> elements)",
            id="xml-players",
        ),
        pytest.param(
            endless("list.csv", b"name;", 32),
            {"name": "name"},
            "the zip file unpacks to more than 100 times its size",
            id="one-endless-line",
        ),
    ],
)
def test_a_file_past_the_bounds_is_refused_before_a_line_is_read(
    monkeypatch: pytest.MonkeyPatch, data: bytes, mapping: dict[str, str] | None, message: str
) -> None:
    """Issue 29: a 2.6 MB zip of 3 million one-field lines held a worker 48.7 s before the
    player cap refused it at the end; blank lines were not counted at all, and a zip of one
    endless line was read to 2 GB. The bytes are now counted first, at C speed: here the cap
    is 50 players, and no line reaches the parser."""
    monkeypatch.setattr(parsers, "MAX_PLAYERS", 50)
    monkeypatch.setattr(parsers, "_player", _no_line_read)
    with pytest.raises(ListError) as refused:
        players(data, mapping=mapping)
    assert message in str(refused.value)


def test_a_file_mostly_unreadable_is_refused_as_soon_as_that_is_clear() -> None:
    """Before, every line of a wrong file was read before it was refused for its bad lines;
    now more than 1,000 bad lines, and more than a tenth of those read, refuse it there."""
    data = "name;rating\n" + "=formula;1\n" * 100_000
    with pytest.raises(ListError, match="1,001 of the first 1,001 lines could not be read"):
        players(data, mapping={"name": "name", "standard": "rating"})


# National lists: CSV ------------------------------------------------------------------------


def test_a_national_list_by_column_names_with_a_guessed_delimiter() -> None:
    data = text(
        "Mitgliedsnr;Nachname;Vorname;Geschlecht;Geburtsjahr;DWZ;FIDE-ID;Verband",
        "10234;Müller;Jörg;M;1968;1875;4611112;GER",
        "10235;Schmidt;Anna;W;17.05.2001;1502;;GER",
        "10236;Neu;Nina;W;;;;GER",
    )
    mapping = {
        "national_id": "Mitgliedsnr",
        "surname": "nachname",
        "first_name": "Vorname",
        "sex": "Geschlecht",
        "birth_year": "Geburtsjahr",
        "standard": "DWZ",
        "fide_id": "FIDE-ID",
        "federation": "Verband",
    }
    found, tally = players(data, mapping=mapping)
    assert found == [
        ListedPlayer(
            name="Müller, Jörg",
            fide_id="4611112",
            national_id="10234",
            federation="GER",
            sex="m",
            birth_year=1968,
            standard=1875,
        ),
        ListedPlayer(
            name="Schmidt, Anna",
            national_id="10235",
            federation="GER",
            sex="w",
            birth_year=2001,
            standard=1502,
        ),
        ListedPlayer(name="Neu, Nina", national_id="10236", federation="GER", sex="w"),
    ]
    assert tally.layout == "csv" and tally.ratings == {"standard"}
    assert tally.columns[:2] == ("Mitgliedsnr", "Nachname")


def test_a_national_list_by_column_numbers_with_a_given_delimiter() -> None:
    data = text("id,name,rapid", '77,"Lee, Ann",1650', "78,\"=cmd|' /C calc'!A0\",1500")
    found, tally = players(
        data, mapping={"national_id": "1", "name": "2", "rapid": "3"}, delimiter=","
    )
    assert found == [ListedPlayer(name="Lee, Ann", national_id="77", rapid=1650)]
    assert str(tally.first_problems[0]).startswith("line 3: \"=cmd|' /C calc'!A0\" is not a name")


def test_a_csv_rating_of_two_to_the_fortieth_is_a_bad_line() -> None:
    found, tally = players(
        text("name;elo", f"Big;{2**40}"), mapping={"name": "name", "standard": "elo"}
    )
    assert found == []
    assert "is not a number from 0 to 4000" in str(tally.first_problems[0])


def test_too_many_problems_is_more_than_a_hundred_and_more_than_one_percent() -> None:
    tally = parsers.Tally(lines=20_000, problems=200)
    assert not parsers.too_many_problems(tally)
    assert parsers.too_many_problems(parsers.Tally(lines=20_000, problems=201))
    assert not parsers.too_many_problems(parsers.Tally(lines=50, problems=50))
    assert parsers.too_many_problems(parsers.Tally(lines=500, problems=101))


@pytest.mark.parametrize("number", ["²", "١٢٣٤", "12²"])
def test_digits_of_other_kinds_are_a_bad_line_not_a_crash(number: str) -> None:
    found, tally = players(
        text("name;elo", f"Odd, Digits;{number}", "Fine, One;1500"),
        mapping={"name": "name", "standard": "elo"},
    )
    assert [p.name for p in found] == ["Fine, One"]
    assert "is not a number from 0 to 4000" in str(tally.first_problems[0])
    with pytest.raises(ListError, match="no column '²'"):
        players(text("name;elo", "A;1"), mapping={"name": "²"})
