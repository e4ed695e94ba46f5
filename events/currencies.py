"""The currency an event's prizes are in by default: the host federation's (issue 29: a
Norwegian event in NOK, not USD). Pure: no Django.

FIDE federation codes (as in TRF record 042 and the rating lists) to ISO 4217 codes, for the
federations whose country has one currency of its own or the euro; a federation not listed
(or none given) gets :data:`DEFAULT`. The director can always type another currency.
"""

from __future__ import annotations

DEFAULT = "USD"

_EURO = [
    "AND",
    "AUT",
    "BEL",
    "BUL",
    "CRO",
    "CYP",
    "ESP",
    "EST",
    "FIN",
    "FRA",
    "GER",
    "GRE",
    "IRL",
    "ITA",
    "KOS",
    "LAT",
    "LTU",
    "LUX",
    "MLT",
    "MNC",
    "MNE",
    "NED",
    "POR",
    "SMR",
    "SVK",
    "SLO",
]

FEDERATION_CURRENCY: dict[str, str] = {
    **dict.fromkeys(_EURO, "EUR"),
    **dict.fromkeys(["ENG", "SCO", "WLS", "JCI", "GCI", "IOM"], "GBP"),
    **dict.fromkeys(["SUI", "LIE"], "CHF"),
    **dict.fromkeys(["DEN", "FAI"], "DKK"),
    **dict.fromkeys(["USA", "ECU", "ESA", "PUR"], "USD"),
    "NOR": "NOK",
    "SWE": "SEK",
    "ISL": "ISK",
    "POL": "PLN",
    "CZE": "CZK",
    "HUN": "HUF",
    "ROU": "RON",
    "SRB": "RSD",
    "BIH": "BAM",
    "MKD": "MKD",
    "ALB": "ALL",
    "UKR": "UAH",
    "MDA": "MDL",
    "GEO": "GEL",
    "ARM": "AMD",
    "AZE": "AZN",
    "TUR": "TRY",
    "ISR": "ILS",
    "CAN": "CAD",
    "MEX": "MXN",
    "BRA": "BRL",
    "ARG": "ARS",
    "CHI": "CLP",
    "COL": "COP",
    "PER": "PEN",
    "URU": "UYU",
    "AUS": "AUD",
    "NZL": "NZD",
    "IND": "INR",
    "CHN": "CNY",
    "HKG": "HKD",
    "JPN": "JPY",
    "KOR": "KRW",
    "SGP": "SGD",
    "MAS": "MYR",
    "PHI": "PHP",
    "INA": "IDR",
    "THA": "THB",
    "VIE": "VND",
    "BAN": "BDT",
    "PAK": "PKR",
    "SRI": "LKR",
    "KAZ": "KZT",
    "UZB": "UZS",
    "MGL": "MNT",
    "UAE": "AED",
    "QAT": "QAR",
    "KSA": "SAR",
    "EGY": "EGP",
    "MAR": "MAD",
    "TUN": "TND",
    "ALG": "DZD",
    "RSA": "ZAR",
    "NGR": "NGN",
    "KEN": "KES",
}


def currency_for(federation: str) -> str:
    """The host federation's currency (``NOR`` → ``NOK``), else :data:`DEFAULT`."""
    return FEDERATION_CURRENCY.get(federation.strip().upper(), DEFAULT)
