"""Rating list benchmark (issue 20): import a 1.2-million-player list, then time the type-ahead.

1. Writes a synthetic list in FIDE's combined TXT layout (zipped, as FIDE serves it) and in
   FIDE's XML layout: fictitious players whose names follow a real list's shape (a few common
   surnames shared by many players, a long tail of rare ones; "Surname, First"), ids, three
   ratings, birth years, titles, flags.
2. Into a fresh PostgreSQL database (dropped afterwards), imports each with
   ``manage.py import_rating_list`` in a process of its own and prints its wall time and peak
   memory (the process's maximum resident set); then imports the TXT list again under the same
   name (the replace path: the old players deleted, the new ones copied, in one transaction).
3. Times the search a director's typing sends (``ratings.selectors.rating_list_search``, the
   ORM included) over a few hundred queries of each kind (a surname's first letters,
   "surname f", "Surname, First", "first surname", the first letters of both, first name first,
   which only the word query answers; an id's first digits) and prints p50, p95 and the slowest
   (and how many the word query's time limit cut off); and the same through the view
   (``/e/SLUG/players/rating-list/?q=…``, an htmx request, the Django test client).

It prints figures; it asserts nothing. Usage (PostgreSQL on 127.0.0.1:5432, or DATABASE_URL's
server):

    .venv/bin/python bench/rating_list.py [--players 1200000] [--queries 300] [--keep-files]
        [--keep-database]
    .venv/bin/python bench/rating_list.py --searches-only DATABASE   # a kept database, again
    .venv/bin/python bench/rating_list.py --fixture ratings/fixtures/demo-fide.txt --players 300

``--fixture`` writes the demo's small list (fictitious players, fixed seed) and stops.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
FEDERATIONS = (  # noqa: SIM905 (a word list reads best as words)
    "IND USA GER RUS FRA ESP ITA POL ENG NED CZE HUN TUR IRI BRA ARG CHN UKR SRB CRO AUT SUI "
    "SWE NOR DEN BEL GRE ROU BUL SVK SLO POR CAN AUS MEX COL PER CHI VIE PHI INA BAN SRI MAS "
    "EGY RSA NGR KEN ISR AZE ARM GEO KAZ UZB MGL JPN KOR FIN EST LAT LTU BLR MDA ISL IRL SCO "
    "WLS LUX CUB VEN ECU URU PAR BOL"
).split()
COMMON_SURNAMES = (  # noqa: SIM905 (a word list reads best as words)
    "Kumar Singh Sharma Nguyen Tran Le Pham Garcia Rodriguez Martinez Lopez Gonzalez "
    "Hernandez Perez Sanchez Muller Schmidt Schneider Fischer Weber Meyer Wagner Becker "
    "Ivanov Smirnov Kuznetsov Popov Petrov Kowalski Nowak Wisniewski Novak Horvath Nagy "
    "Kovacs Yilmaz Kaya Demir Silva Santos Oliveira Souza Ferreira Rossi Russo Ferrari "
    "Esposito Bianchi Martin Bernard Dubois Thomas Robert Smith Jones Williams Brown Taylor "
    "Wilson Johnson Lee Kim Park Choi Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun "
    "Ma Zhu Hu Guo Lin He Gao Jensen Nielsen Hansen Pedersen Andersen Johansson Andersson "
    "Karlsson Nilsson Eriksson Larsen Olsen Berg Haugen Virtanen Korhonen Tamm Ozols "
    "Kazlauskas Popescu Ionescu Georgiev Dimitrov Jovanovic Petrovic Nikolic Horvat Kovacevic "
    "Papadopoulos Cohen Levi Mizrahi Mammadov Aliyev Hasanov Grigoryan Harutyunyan Beridze "
    "Kapanadze Suleimenov Rahman Hossain Ahmed Ali Khan Hussain Mohamed Ibrahim Hassan "
    "Abdullah Okafor Mensah Naidoo Dlamini"
).split()
FIRST_NAMES = (  # noqa: SIM905 (a word list reads best as words)
    "Aarav Vihaan Arjun Ananya Priya Minh Linh Anh Carlos Maria Jose Lucia Javier Sofia Lukas "
    "Anna Jonas Lea Felix Dmitry Sergei Olga Natalia Piotr Katarzyna Jakub Tomas Eva Peter "
    "Zsofia Mehmet Elif Ahmet Zeynep Joao Ana Pedro Marco Giulia Luca Chiara Pierre Camille "
    "Louis Emma James Olivia William Sophie Daniel Grace Min-jun Seo-yeon Wei Fang Jun Hui "
    "Lei Yan Mads Freja Magnus Ingrid Erik Astrid Lars Sigrid Juha Aino Kristjan Janis Ruta "
    "Andrei Elena Ivan Milica Nikola Ivana Dimitrios Eleni David Noa Rashad Leyla Davit Nino "
    "Timur Aigerim Rafiq Nusrat Omar Fatima Yusuf Aisha Chinedu Ama Thabo Zanele Hamid Maryam "
    "Levon"
).split()
SYLLABLES = (  # noqa: SIM905 (a word list reads best as words)
    "an ber ko vic son mar tin sel dor ra ni ka lo ve ri ta zen hol gra mi sto len fa ru bo "
    "chi de sha wa qu yo pe ul ig na ez ov ich sky berg man ler rov ski dze yan"
).split()
TITLES = ("GM", "IM", "FM", "CM")
WOMAN_TITLES = ("WGM", "WIM", "WFM", "WCM")


@dataclass(frozen=True)
class Synthetic:
    fide_id: int
    name: str
    federation: str
    sex: str
    title: str
    woman_title: str
    standard: int
    rapid: int
    blitz: int
    birth_year: int
    flag: str


def _surname(rng: random.Random) -> str:
    if rng.random() < 0.35:  # a real list's head: a few hundred surnames shared by many
        return rng.choice(COMMON_SURNAMES)
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()


def _rating(rng: random.Random, share: float) -> int:
    return 0 if rng.random() > share else max(1400, min(2850, int(rng.gauss(1750, 250))))


def synthetic_players(count: int, seed: int = 20) -> Iterator[Synthetic]:
    rng = random.Random(seed)
    fide_id = 100_000
    for _ in range(count):
        fide_id += rng.randint(1, 40)
        sex = "F" if rng.random() < 0.15 else "M"
        standard = _rating(rng, 0.45)
        strong = standard >= 2300
        title = rng.choice(TITLES) if strong and rng.random() < 0.5 else ""
        woman_title = rng.choice(WOMAN_TITLES) if sex == "F" and strong else ""
        inactive = rng.random() < 0.3
        flag = ("w" if sex == "F" else "") + ("i" if inactive else "")
        yield Synthetic(
            fide_id=fide_id,
            name=f"{_surname(rng)}, {rng.choice(FIRST_NAMES)}",
            federation=rng.choice(FEDERATIONS),
            sex=sex,
            title=title,
            woman_title=woman_title,
            standard=standard,
            rapid=_rating(rng, 0.35),
            blitz=_rating(rng, 0.3),
            birth_year=0 if rng.random() < 0.02 else rng.randint(1940, 2018),
            flag=flag,
        )


def fide_txt_line(p: Synthetic) -> str:
    """One line of FIDE's combined TXT list (162 characters, as FIDE writes it)."""
    return (
        f"{p.fide_id:<15}{p.name:<61}{p.federation:<4}{p.sex:<4}{p.title:<5}{p.woman_title:<5}"
        f"{'':<15}{'':<4}{p.standard:<6}{0:<4}{20:<3}{p.rapid:<6}{0:<4}{20:<3}"
        f"{p.blitz:<6}{0:<4}{20:<3}{p.birth_year:<6}{p.flag:<4}"
    )


def fide_xml_player(p: Synthetic) -> str:
    fields = {
        "fideid": p.fide_id,
        "name": p.name,
        "country": p.federation,
        "sex": p.sex,
        "title": p.title,
        "w_title": p.woman_title,
        "o_title": "",
        "foa_title": "",
        "rating": p.standard,
        "games": 0,
        "k": 20,
        "rapid_rating": p.rapid,
        "rapid_games": 0,
        "rapid_k": 20,
        "blitz_rating": p.blitz,
        "blitz_games": 0,
        "blitz_k": 20,
        "birthday": p.birth_year,
        "flag": p.flag,
    }
    inner = "".join(f"<{tag}>{value}</{tag}>" for tag, value in fields.items())
    return f"<player>{inner}</player>\n"


def write_txt_zip(path: Path, count: int) -> None:
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("players_list_foa.txt", "w") as member,
    ):
        member.write((HEADER + "\r\n").encode())
        for player in synthetic_players(count):
            member.write((fide_txt_line(player) + "\r\n").encode())


def write_xml(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write("<playerslist>\n")
        for player in synthetic_players(count):
            out.write(fide_xml_player(player))
        out.write("</playerslist>\n")


# Demo fixture: a few hundred fictitious players, some with the letters a list from a national
# federation would carry (the type-ahead finds them typed without accents).
DEMO_SURNAMES = (  # noqa: SIM905 (a word list reads best as words)
    "Lindqvist Okonkwo Varga Haugland Brennan Castellanos Novotny Abernathy Quispe Halvorsen "
    "Sørlie Dvořák Łukaszewicz Müller-Brandt Ibáñez Çelik Ørsted Jovanović Kowalczyk Nakamura "
    "Ferreira Petrosyan Andriessen Kallio Mäkinen Tšernov Vidmar Rautio Moreau Santangelo "
    "Whitfield Oyelaran Ramanathan Chaudhary Thorsen Bjørnstad Zielinski Markovic Dalgaard "
    "Ekwueme Fontaine Grünewald Hadžić Ilyasova Jankauskas Kristiansen Lombardi Mendoza "
    "Nwachukwu Ostrowski Pellegrini Quintero Rasmussen Szabó Takahashi Urquhart Valdés"
).split()
DEMO_WOMEN = (  # noqa: SIM905 (a word list reads best as words)
    "Ebba Aoife Tereza Ruth Wayra Łucja Signe Dragana Beatriz Femke Aino Urška Elise Harriet "
    "Kavya Frida Ingrid Mette Amélie Henrike Dinara Chiara Valentina Ngozi Zofia Yui Rocío"
).split()
DEMO_MEN = (  # noqa: SIM905 (a word list reads best as words)
    "Chidi Bence Sindre Mateo Eirik Åsmund Jiří Jörg Iñaki Emre Kacper Haruto Arman Oskari "
    "Jaan Veikko Gianni Tunde Rohan Marek Luka Obinna Emir Vytautas Jonas Matteo Nikolaj "
    "Gergő Callum"
).split()


def demo_players(count: int, seed: int = 2026) -> Iterator[Synthetic]:
    rng = random.Random(seed)
    used = set()
    fide_id = 90_000_000
    while len(used) < count:
        sex = "F" if rng.random() < 0.35 else "M"
        name = f"{rng.choice(DEMO_SURNAMES)}, {rng.choice(DEMO_WOMEN if sex == 'F' else DEMO_MEN)}"
        if name in used:
            continue
        used.add(name)
        fide_id += rng.randint(3, 900)
        standard = _rating(rng, 0.9)
        title = rng.choice(TITLES) if standard >= 2350 else ""
        woman_title = rng.choice(WOMAN_TITLES) if sex == "F" and standard >= 2150 else ""
        yield Synthetic(
            fide_id=fide_id,
            name=name,
            federation=rng.choice(FEDERATIONS[:40]),
            sex=sex,
            title=title,
            woman_title=woman_title,
            standard=standard,
            rapid=_rating(rng, 0.7),
            blitz=_rating(rng, 0.6),
            birth_year=rng.randint(1950, 2014),
            flag=("w" if sex == "F" else "") + ("i" if rng.random() < 0.1 else ""),
        )


def write_fixture(path: Path, count: int) -> None:
    lines = [HEADER, *(fide_txt_line(p) for p in demo_players(count))]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8", newline="")


# The benchmark ------------------------------------------------------------------------------


def _server_url(name: str) -> str:
    base = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    return base.rsplit("/", 1)[0] + "/" + name


def _environment(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": "bench-not-secret",
        "ALLOWED_HOSTS": "testserver,localhost",
    }


def _child_import(path: str, name: str) -> None:
    """In a process of its own: import, then print wall time and peak memory as JSON."""
    import django

    django.setup()
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("import_rating_list", path, "--name", name, stdout=io.StringIO())
    elapsed = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": elapsed, "peak_mb": peak_kb / 1024}))


def _import(path: Path, name: str, database_url: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--child-import", str(path), name],
        cwd=REPO,
        env={**_environment(database_url), "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _queries(players: int, count: int, seed: int = 7) -> dict[str, list[str]]:
    """Queries a director types, drawn from ``count`` of the list's own players."""
    rng = random.Random(seed)
    chosen = set(rng.sample(range(players), min(players, count)))
    picks = [p for index, p in enumerate(synthetic_players(players)) if index in chosen]
    rng.shuffle(picks)
    kinds: dict[str, list[str]] = {
        "surname prefix": [],
        "surname f": [],
        "Surname, First": [],
        "first surname": [],
        "firs surn": [],
        "id prefix": [],
    }
    for p in picks:
        surname, first = p.name.split(", ")
        kinds["surname prefix"].append(surname[: rng.randint(min(3, len(surname)), len(surname))])
        kinds["surname f"].append(f"{surname.lower()} {first[0].lower()}")
        kinds["Surname, First"].append(p.name)
        kinds["first surname"].append(f"{first} {surname}")
        kinds["firs surn"].append(f"{first[:4]} {surname[:4]}")  # the word query
        kinds["id prefix"].append(str(p.fide_id)[: rng.randint(4, 7)])
    return kinds


def _percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * len(ordered))) - 1)]
    return (
        f"p50 {statistics.median(ordered) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms  "
        f"max {ordered[-1] * 1000:6.1f} ms  (n={len(ordered)})"
    )


def _searches(database_url: str, players: int, queries: int) -> None:
    os.environ.update(_environment(database_url))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic here
    from django.contrib.auth import get_user_model
    from django.test import Client

    from events.errors import UserError
    from events.services import EventFields, event_create
    from ratings.models import RatingList
    from ratings.selectors import rating_list_search

    rating_list = RatingList.objects.get(name="Bench TXT")
    kinds = _queries(players, queries)
    for query in kinds["surname prefix"][:20]:  # warm the connection and the caches
        rating_list_search(rating_list=rating_list, query=query, kind="standard")
    print(f"\nSearch ({rating_list.players:,} players), the selector:")
    for kind, texts in kinds.items():
        times, cut = [], 0
        for text in texts:
            started = time.perf_counter()
            try:
                rating_list_search(rating_list=rating_list, query=text, kind="standard")
            except UserError:  # the word query's time limit: "type more of the name"
                cut += 1
            times.append(time.perf_counter() - started)
        print(f"  {kind:<16} {_percentiles(times)}" + (f"  {cut} cut off" if cut else ""))
    director = get_user_model().objects.get_or_create(username="bench-director")[0]
    event = event_create(
        fields=EventFields(name="Bench Open", system="swiss", time_control="classical", rounds=9),
        director=director,
    )
    client = Client(HTTP_HX_REQUEST="true")
    client.force_login(director)
    url = f"/e/{event.slug}/players/rating-list/"
    print("Search through the view (htmx request, Django test client):")
    for kind in ("surname prefix", "Surname, First", "first surname", "firs surn"):
        times = []
        for text in kinds[kind]:
            started = time.perf_counter()
            response = client.get(url, {"q": text, "list": rating_list.pk})
            times.append(time.perf_counter() - started)
            assert response.status_code == 200
        print(f"  {kind:<16} {_percentiles(times)}")


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _imports(players: int, database_url: str, keep_files: bool) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="td-ratings-bench-"))
    try:
        txt, xml = workdir / "players_list.zip", workdir / "players_list_xml_foa.xml"
        write_txt_zip(txt, players)
        write_xml(xml, players)
        print(f"uptime: {_uptime()}")
        print(
            f"{players:,} players; TXT zip {txt.stat().st_size / 1e6:.1f} MB, "
            f"XML {xml.stat().st_size / 1e6:.1f} MB"
        )
        for label, path, list_name in (
            ("TXT (zipped), new list", txt, "Bench TXT"),
            ("XML, new list", xml, "Bench XML"),
            ("TXT (zipped), replacing", txt, "Bench TXT"),
        ):
            figures = _import(path, list_name, database_url)
            print(
                f"Import {label:<26} {figures['seconds']:7.1f} s   "
                f"peak memory {figures['peak_mb']:6.0f} MB"
            )
    finally:
        if keep_files:
            print(f"files kept in {workdir}")
        else:
            for path in workdir.iterdir():
                path.unlink()
            workdir.rmdir()


def _bench(players: int, queries: int, keep_files: bool, keep_database: bool) -> None:
    import psycopg

    name = f"td_bench_ratings_{os.getpid()}"
    admin = psycopg.connect(_server_url("postgres"), autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    database_url = _server_url(name)
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"],
            cwd=REPO,
            env=_environment(database_url),
            check=True,
        )
        _imports(players, database_url, keep_files)
        _searches(database_url, players, queries)
        print(f"uptime: {_uptime()}")
    finally:
        if keep_database:
            print(f"database kept: {name} (--searches-only {name} times the searches again)")
        else:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1_200_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--keep-files", action="store_true")
    parser.add_argument("--keep-database", action="store_true")
    parser.add_argument("--searches-only", metavar="DATABASE", help="a kept database's name")
    parser.add_argument("--fixture", type=Path, help="write the demo's list here and stop")
    parser.add_argument("--child-import", nargs=2, metavar=("PATH", "NAME"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_import:
        _child_import(*args.child_import)
    elif args.fixture:
        write_fixture(args.fixture, args.players)
    elif args.searches_only:
        print(f"uptime: {_uptime()}")
        _searches(_server_url(args.searches_only), args.players, args.queries)
        print(f"uptime: {_uptime()}")
    else:
        _bench(args.players, args.queries, args.keep_files, args.keep_database)


if __name__ == "__main__":
    main()
