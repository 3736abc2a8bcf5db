"""Validators: correct checksums pass, near misses fail, and junk of any kind is a clean False."""

from __future__ import annotations

import pytest

from crfdeid.validators import VALIDATORS, es_nss, get_validator

CASES = {
    "es.dni": (["12345678Z", "12.345.678-Z", "00000000t"], ["12345678A", "1234567Z", "ABCDEFGHZ"]),
    "es.nie": (["X1234567L", "Y-0000000-Z"], ["X1234567A", "W1234567L"]),
    "es.nif": (["12345678Z", "X1234567L"], ["12345678A"]),
    "es.cif": (["B50918275", "A28123453"], ["B50918273", "12345678Z"]),
    "imei": (["356938035643809", "490154203237518"], ["356938035643808", "3569380356"]),
    "es.nss": (["28 12345678 40", "281234567840", "28/12345678/40"], ["28 12345678 41", "2812345678", "abc"]),
    "es.ccc": (["1234-1234-16-1234567890"], ["1234-1234-17-1234567890"]),
    "es.postal_code": (["28046", "E-02006", "52001"], ["53001", "00123", "2804", "280466"]),
    "de.kvnr": (["A123456780", "K526018158", "a 123 456 780"], ["A123456781", "1123456780", "A12345678"]),
    "de.postal_code": (["69120", "D-80331", "01067", "DE-99998"],
                       ["05123", "00123", "62001", "6912", "A-1090"]),
    "at.postal_code": (["1090", "A-1090", "AT-8010"], ["4231", "10900", "D-1090"]),
    "at.vnr": (["1237 010180", "1234 150372"], ["1238 010180", "123701018"]),
    "ch.postal_code": (["8091", "CH-8091", "1000"], ["0999", "9700", "80910"]),
    "ch.ssn": (["756.1234.5678.97", "7563047500917"], ["756.1234.5678.98", "755.1234.5678.97"]),
    "iban": (["ES91 2100 0418 4502 0005 1332", "GB82WEST12345698765432"], ["ES91 2100 0418 4502 0005 1333"]),
    "payment_card": (["4111 1111 1111 1111", "5500-0000-0000-0004"], ["4111 1111 1111 1112", "4111"]),
    "ip_address": (["192.168.1.20", "10.0.0.1", "::1"], ["300.1.2.3", "1.2.3", "a.b.c.d"]),
    "numeric_date": (["12.03.2019", "3/12/19", "2019-03-12", "5/25/2020", "29.02.2020"],
                     ["31.02.2019", "13/13/2019", "12.03-2019", "29.02.2019", "2019-13-01", "1.2.3.4"]),
    "phone_number": (["912 345 678", "5982) 487-3837", "986413144 ext 1530"], ["12345", "1234567890123456"]),
}

JUNK = [None, "", " ", "€", "🙂", "١٢٣٤٥٦٧٨Z", object(), 12345678, 3.5, b"12345678Z", ["12345678Z"],
        "12345678Z" * 1000, "\x00", "\ud800"]


def test_every_registered_validator_has_cases():
    assert set(CASES) == set(VALIDATORS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_valid_and_invalid_examples(name: str):
    check = VALIDATORS[name]
    valid, invalid = CASES[name]
    for value in valid:
        assert check(value) is True, (name, value)
    for value in invalid:
        assert check(value) is False, (name, value)


@pytest.mark.parametrize("name", sorted(VALIDATORS))
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_is_a_clean_no(name: str, junk: object):
    assert VALIDATORS[name](junk) is False


def test_nss_short_number_uses_the_province_times_ten_million_rule():
    # number < 10,000,000: control = (province * 10^7 + number) mod 97
    province, number = 8, 1234567
    control = (province * 10_000_000 + number) % 97
    assert es_nss(f"{province:02d}{number:08d}{control:02d}")
    assert not es_nss(f"{province:02d}{number:08d}{(control + 1) % 97:02d}")


def test_get_validator_names_the_known_ones():
    assert get_validator("es.dni") is VALIDATORS["es.dni"]
    with pytest.raises(KeyError, match=r"es\.dni"):
        get_validator("es.dnie")
