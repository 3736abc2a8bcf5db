"""Contact details: phone and fax numbers, e-mail addresses, URLs and IP addresses.

Phones keep their grouping, an international prefix, and their type, by the pack's numbering
plans (``phone_plans``, crfdeid.surrogates.numbering): a Spanish mobile (6/7) stays a mobile and a
fixed line (8/9) keeps its two-digit area prefix, like places keep their province — or, where the
pack lists landline prefixes by province (``area_codes``), takes one of the province of the
surrogate town beside it ("Teruel. Tfno: 978 …", never Lleida's 973). A German, Austrian or Swiss
number keeps its "+49"/"0043", its trunk "0" and its type (a mobile its operator's prefix: "0160",
"0664", "079"), and its area code becomes one of the surrogate town's state ("06221 555-8611" beside
Heidelberg -> Stuttgart: "0711 …").
E-mail addresses whose local part came from a person's name are rebuilt from that person's
surrogate name ("tarregui@…" for Tomás Arregui -> "mcastro@…" for Marta Castro); public provider
domains (gmail.com…, from the pack) are kept and institutional ones replaced.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING

from .base import (
    DocumentState,
    Level,
    Surrogate,
    SurrogateFailure,
    ascii_fold,
    chosen,
    fold,
    match_case,
    scramble,
    weighted_choice,
)
from .data import SurrogateData
from .numbering import PhonePlan, calling_code

if TYPE_CHECKING:
    from .places import CountryGenerator

_EMAIL = re.compile(r"^(?P<local>[^@\s]+)(?P<at>\s?@\s?)(?P<domain>[^@\s]+?)(?P<tail>[.,;:)]*)$")
_URL = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)?(?P<host>[^/?#\s:]+)(?P<rest>.*)$", re.IGNORECASE)
_ALPHA_RUN = re.compile(r"[a-z]+")
_LETTER_RUN = re.compile(r"[^\W\d_]+")
#: How far (characters, same line or the next) a fixed phone number looks for the town whose
#: province's landline prefix it takes.
PHONE_WINDOW = 80


def _digits(text: str, rng: random.Random) -> str:
    """Every digit replaced by a random digit, nothing else touched."""
    return "".join(rng.choice("0123456789") if c.isdigit() else c for c in text)


def _words(text: str, words: list[str], rng: random.Random) -> str:
    """Every letter run replaced by one of ``words`` in its case pattern, digits by digits: the
    format of a path or host kept without inventing letter strings."""
    return _digits(_LETTER_RUN.sub(lambda m: match_case(m[0], rng.choice(words)), text), rng)


class PhoneGenerator:
    """NUMERO_TELEFONO and NUMERO_FAX, by the pack's numbering plans (``phone_plans``)."""

    name = "phones"
    phase = 2

    def __init__(self, data: SurrogateData, countries: CountryGenerator | None = None) -> None:
        self.data = data
        self.countries = countries  # a foreign calling code follows its country's surrogate

    def neutral_category(self, text: str, label: str) -> str:
        return "fax" if label == "NUMERO_FAX" else "phone"

    def spoken(self, text: str) -> str | None:
        """The digits of a number dictated as digit words ("seis cuatro nueve dos uno ocho tres
        tres cero" -> "649218330"), or None."""
        words = text.split()
        if len(words) < 6 or any(c.isdigit() for c in text):
            return None
        values = [self._digit_words.get(fold(w)) for w in words]
        return None if None in values else "".join(str(v) for v in values)

    @cached_property
    def _digit_words(self) -> dict[str, int]:
        words = self.data.number_words
        return {fold(f): value for value, forms in words.items() if value < 10 for f in forms}

    def moved_code(
        self, text: str, digits: list[int], prefix: int, state: DocumentState
    ) -> tuple[int, str] | None:
        """(where in ``text`` the calling code starts, the code of the country its country
        becomes), for a number with another country's calling code: the same country the
        note's mentions of it get ("Rumanía" -> "Ucrania": "+40 721 …" -> "+380 …"; "+40" had
        stayed beside the new country). None: the home country's code, one several countries
        share with a bigger one, or a pack without calling codes."""
        if self.countries is None or prefix == 0:
            return None
        compact = "".join(text[i] for i in digits[:prefix])
        code = compact[2:] if compact.startswith("00") and len(compact) > 2 else compact
        country = self.data.calling_country.get(code)
        if country is None or country == self.data.home_code or self.countries.home(
                self.data.country_name.get(country, "")):
            return None
        first = digits[prefix - len(code)]
        if text[first : first + len(code)] != code:
            return None  # a code written with a space inside: left as it is
        new = self.countries.surrogate_code(country, state)
        number = self.data.country_calling.get(new or "")
        return None if number is None or number == code else (first, number)

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: international prefix, trunk prefix and type kept, the area code of
        the surrogate town's province -> every digit replaced. A number dictated in words
        ("seis cuatro nueve …") is drawn as its digits and written back in words."""
        spoken = self.spoken(text)
        if spoken is not None:
            drawn = self.generate(spoken, label, start, state)
            words = [self.data.number_words[int(c)][0] for c in drawn.text if c.isdigit()]
            return replace(drawn, text=match_case(text, " ".join(words)))
        namespace = f"phone:{label}"
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if len(digits) < 3:
            level = Level(lambda rng: scramble(text, rng), "phone", check_close=len(digits) > 1)
            new, level = state.draw_chain(text, [level], namespace)
            return chosen(new, level)
        compact = "".join(text[i] for i in digits)
        prefix, plan = self.international(text, compact, start, state)
        if plan is None and prefix == 0:
            plan = self.domestic_plan(compact, start, state)
        if plan is not None and plan.trunk:
            make, kind = self.trunk_number(text, digits, prefix, plan, start, state)
        else:
            make, kind = self.fixed_length_number(text, digits, prefix, plan, start, state)
        moved = self.moved_code(text, digits, prefix, state)
        if moved is not None:
            first, number = moved
            cut = digits[prefix - 1] + 1

            def make(rng: random.Random, drawn: Callable[[random.Random], str] = make) -> str:
                out = drawn(rng)
                return out[:first] + number + out[cut:]

            kind = f"{kind}, calling code of the country's surrogate"
        levels = [
            Level(make, namespace),
            Level(
                lambda rng: scramble(text, rng),
                f"{namespace}:any",
                "anywhere",
                "no safe number keeping the original's prefix: every digit replaced",
            ),
        ]
        new, level = state.draw_chain(text, levels, namespace)
        return chosen(new, level, kind)

    def international(
        self, text: str, compact: str, start: int, state: DocumentState
    ) -> tuple[int, PhonePlan | None]:
        """(how many leading digits are the international prefix, the plan of its calling code):
        after a "+" (in the span or just before it) or "00", any calling code; written bare,
        the code of a plan of fixed length followed by a whole national number ("34 912 …")."""
        plans = self.data.phone_plans
        for plan in plans.values():  # a plan's own code, bare or after "00", with a whole number
            code = plan.calling_code
            if plan.length is None:
                continue
            if compact.startswith("00" + code) and len(compact) >= 2 + len(code) + plan.length:
                return 2 + len(code), plan
            if compact.startswith(code) and len(compact) >= len(code) + plan.length:
                return len(code), plan
        lead = text[: next(i for i, c in enumerate(text) if c.isdigit())]
        in_place = state.text[start : start + len(text)] == text
        plus = "+" in lead or (in_place and state.text[max(0, start - 3) : start].rstrip().endswith("+"))
        if compact.startswith("00") and len(compact) > 6:
            code = calling_code(compact[2:])
            return 2 + len(code), self.data.calling_plans.get(code)
        if plus:
            code = calling_code(compact)
            return len(code), self.data.calling_plans.get(code)
        return 0, None

    def domestic_plan(self, compact: str, start: int, state: DocumentState) -> PhonePlan | None:
        """The plan of a number written without its calling code: the pack's only one, else that
        of the country of the town beside it or of the note's towns, else of the plan whose trunk
        and area code it starts with, else the home country's."""
        plans = self.data.phone_plans
        if len(plans) <= 1:
            return next(iter(plans.values()), None)
        near = state.towns.near(state.text, start, PHONE_WINDOW)
        for province in ([near.province] if near is not None else []) + list(state.province_map):
            country = self.data.province_country.get(province)
            if country in plans:
                return plans[country]
        known = [p for p in plans.values() if p.trunk and compact.startswith(p.trunk)
                 and p.known_area(compact[len(p.trunk) :])]
        if len(known) == 1:
            return known[0]
        return plans.get(self.data.home_code or "")

    def target_province(
        self, original: str | None, plan: PhonePlan, start: int, state: DocumentState
    ) -> str | None:
        """The province whose area codes a fixed number takes: the surrogate town's beside it,
        else where the note's towns of the original's province went, else the original's own
        (None: unknown, or of another country than the number's)."""
        near = state.towns.near(state.text, start, PHONE_WINDOW)
        province = near.target if near is not None else None
        if province is None or self.data.province_country.get(province, plan.country) != plan.country:
            province = state.province_map.get(original, original) if original else None
        if province is not None and self.data.province_country.get(province, plan.country) != plan.country:
            return None
        return province

    def fixed_length_number(
        self, text: str, digits: list[int], prefix: int, plan: PhonePlan | None, start: int,
        state: DocumentState,
    ) -> tuple[Callable[[random.Random], str], str]:
        """A plan without a trunk prefix (Spain): a mobile keeps its first digit, a fixed line the
        first ``area_digits`` (the province), or takes an area code of the surrogate town's
        province where the pack lists them; without a plan, only the international prefix stays."""
        compact = "".join(text[i] for i in digits)
        national = compact[prefix:]
        kind, found = plan.kind(national) if plan is not None else ("other", "")
        area_digits = plan.area_digits if plan is not None else 0
        keep = prefix + (len(found) if kind == "mobile" else area_digits if kind == "fixed" else 0)
        ext = text.lower().find("ext")
        area = None
        if plan is not None and plan.area_codes and plan.length is not None and len(national) == plan.length:
            original = plan.area_province(national[:3]) or plan.area_province(national[:2])
            if original is not None:
                near = state.towns.near(state.text, start, PHONE_WINDOW)
                province = near.target if near is not None else state.province_map.get(original, original)
                area = plan.area_codes.get(province)

        def make(rng: random.Random) -> str:
            out = list(scramble(text, rng))
            for n, i in enumerate(digits):
                if n < keep:
                    out[i] = text[i]
            if area:  # the surrogate town's province's prefix ("957" for Córdoba, "91" for Madrid)
                code = rng.choice(area)
                for n, i in enumerate(digits[prefix : prefix + len(code)]):
                    out[i] = code[n]
            if ext >= 0:  # an extension is a plain number
                for i in digits:
                    if i > ext:
                        out[i] = rng.choice("0123456789")
            return "".join(out)

        return make, kind

    def trunk_number(
        self, text: str, digits: list[int], prefix: int, plan: PhonePlan, start: int, state: DocumentState,
    ) -> tuple[Callable[[random.Random], str], str]:
        """A plan with a trunk prefix (Germany, Austria, Switzerland): the area code is the group
        of digits after the trunk prefix ("06221 555-8611", "+43 316 555-12345", "+49 (0)89 …")
        and becomes another one of the surrogate town's province, of the original's length (or
        the nearest one) where it has one, the same for every number of the note with that area
        code and province (else digits of the original's length, drawn); a mobile or service number keeps its
        operator's group ("0160", "0664"). The international and trunk prefixes stay, the
        subscriber number is drawn (not starting with 0)."""
        compact = "".join(text[i] for i in digits)
        n = prefix
        if n < len(digits) and compact[n] == plan.trunk and (
                prefix == 0 or text[digits[n] - 1 : digits[n]] == "("):
            n += 1  # "0…", "(0)": the trunk prefix
        group = 1
        while n + group < len(digits) and digits[n + group] == digits[n + group - 1] + 1:
            group += 1
        national = compact[n:]
        kind, found = plan.kind(national)
        glued = n + group >= len(digits) or group > 5
        if glued:  # no separator after the area code: the longest one of the plan it starts with
            group = len((plan.known_area(national) if kind == "fixed" else None) or found) or 3
            if kind != "fixed":
                group += 1
        kept = n if kind == "fixed" else n + group
        area_start, area_end = digits[min(n, len(digits) - 1)], digits[min(n + group, len(digits)) - 1] + 1
        area = ""
        if kind == "fixed":
            original = plan.area_province(national[:group])
            province = self.target_province(original, plan, start, state)
            every = [c for c in plan.area_codes.get(province or "", []) if c != national[:group]]
            nearest = min((abs(len(c) - group) for c in every), default=0)  # "1" (Wien) -> "316", not "3452"
            codes = sorted(c for c in every if abs(len(c) - group) == nearest)
            if codes:  # one per original area code and province: a note's phone and fax agree
                area = state.secret.rng("phone-area", national[:group], province or "").choice(codes)
        blocked = (*plan.mobile, *plan.special)
        ext = text.lower().find("ext")

        def make(rng: random.Random) -> str:
            out = list(scramble(text, rng))
            for m, i in enumerate(digits):
                if m < kept:
                    out[i] = text[i]
            rest = [i for i in digits[kept:] if not area_start <= i < area_end or kind != "fixed"]
            if rest:
                out[rest[0]] = rng.choice("123456789")  # a subscriber number does not start with 0
            if ext >= 0:
                for i in digits:
                    if i > ext:
                        out[i] = rng.choice("0123456789")
            if kind != "fixed":
                return "".join(out)
            code = area
            for _ in range(0 if area else 20):  # no area codes known: digits of its length
                code = rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(group - 1))
                if not code.startswith(blocked):
                    break
            return "".join(out[:area_start]) + code + "".join(out[area_end:])

        return make, kind

class EmailGenerator:
    """CORREO_ELECTRONICO."""

    name = "emails"
    phase = 1  # after people (phase 0): the local part follows the surrogate name

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def domain(self, domain: str, state: DocumentState) -> str:
        if fold(domain) in self.data.email_providers:
            return domain
        labels = domain.split(".")
        tld = labels[-1] if len(labels) > 1 else "es"
        count = max(len(labels) - 1, 1)

        def make(rng: random.Random) -> str:
            return ".".join(rng.choice(self.data.domain_words) for _ in range(count)) + "." + tld

        return state.draw("domain", domain, make)

    def _name_word(self, chunk: str, rng: random.Random) -> str:
        """A surrogate name for a letter run of a local part that no name of the note explains:
        a given name where the run is one ("jorge_…"), a surname otherwise, as spelled in
        addresses."""
        male, female = self.data.name_sex(chunk)
        if male or female:
            pool = self.data.given_pool["m" if male >= female else "f"]
        else:
            pool = self.data.surname_pool
        return ascii_fold(weighted_choice(rng, pool.items, pool.cum))

    def _chunk(self, chunk: str, initials: dict[str, str], rng: random.Random) -> str:
        """A leftover letter run: initials stay initials (the note's own mapping when it has one,
        else the initial of a surrogate name); a longer run becomes a name; a generic word of
        the pack's domain words ("hospital", "salud") is kept."""
        if len(chunk) <= 2:
            return "".join(initials.get(c) or self._name_word("", rng)[:1] for c in chunk)
        if chunk in self.data.domain_words:
            return chunk
        return self._name_word(chunk, rng)

    def local(self, local: str, state: DocumentState, rng: random.Random) -> str:
        """The local part rebuilt from the note's surrogate names where the original's letters
        spell a name of the note, from drawn names elsewhere; separators kept, digits replaced by
        digits, initials by initials. Never random letters: a reader spots "rauluidgfv" at once."""
        folded = fold(local)
        names, initials = state.names_for_addresses()
        pieces: list[tuple[int, int, str]] = []
        taken = [False] * len(folded)
        for key, surrogate in names:
            start = folded.find(key)
            while start >= 0 and key:
                if not any(taken[start : start + len(key)]):
                    pieces.append((start, start + len(key), surrogate))
                    taken[start : start + len(key)] = [True] * len(key)
                start = folded.find(key, start + 1)
        runs = _ALPHA_RUN.findall(folded)
        if not pieces and len(runs) == 1 and len(runs[0]) > 2:
            # one glued run no name of the note explains: a plausible one from surrogate names
            given = self.data.given_pool["any"] or self.data.given_pool["f"]
            first = ascii_fold(weighted_choice(rng, given.items, given.cum))
            last = ascii_fold(weighted_choice(rng, self.data.surname_pool.items, self.data.surname_pool.cum))
            base = f"{first}{last}" if len(runs[0]) > 10 else f"{first[0]}{last}"
            run_start = folded.index(runs[0])
            pieces.append((run_start, run_start + len(runs[0]), base))
            taken[run_start : run_start + len(runs[0])] = [True] * len(runs[0])
        for match in _ALPHA_RUN.finditer(folded):
            run_start, run_end = match.span()
            for i in range(run_start, run_end):
                if taken[i]:
                    continue
                j = i
                while j < run_end and not taken[j]:
                    j += 1
                pieces.append((i, j, self._chunk(folded[i:j], initials, rng)))
                taken[i:j] = [True] * (j - i)
        out, cursor = [], 0
        for s, e, new in sorted(pieces):
            out.append(_digits(folded[cursor:s], rng) + new)
            cursor = e
        out.append(_digits(folded[cursor:], rng))
        return "".join(out)

    def _anything(self, text: str, rng: random.Random) -> str:
        """The last resort for text that is no address or has no safe rebuilt one: names before
        an "@" (in the original's case); after it, a public provider kept and any other host
        made of domain words with its top-level domain kept; digits as digits."""
        local, at, domain = text.partition("@")
        names = _digits(_LETTER_RUN.sub(lambda m: match_case(m[0], self._name_word(m[0], rng)), local), rng)
        if not at:
            return names
        host = domain.strip().rstrip(".,;:)")
        if fold(host) in self.data.email_providers:
            return names + at + domain
        head, dot, tld = host.rpartition(".")
        new_host = _words(head or host, self.data.domain_words, rng) + (dot + tld if dot else "")
        return names + at + domain.replace(host, new_host, 1)

    def neutral_category(self, text: str, label: str) -> str:
        return "email"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: rebuilt from the surrogate name and domain -> every letter and
        digit replaced."""
        match = _EMAIL.match(text.strip())
        rebuilt = Level(lambda rng: self._anything(text, rng), "email")
        if match is None:
            new, level = state.draw_chain(text, [rebuilt], "email")
            return chosen(new, level, "not an address: rebuilt from names and domain words")
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        try:
            domain: str | None = self.domain(match["domain"], state)
        except SurrogateFailure:
            domain = None

        def make(rng: random.Random) -> str:
            local = self.local(match["local"], state, rng)
            if _spells_a_name(local, state):
                return text  # a drawn "garcia" in "mgarcia" beside a Dra. García: rejected, drawn again
            return f"{lead}{local}{match['at']}{domain}{match['tail']}{trail}"

        levels = [
            Level(make if domain is not None else None, "email"),
            Level(
                lambda rng: self._anything(text, rng),
                "email:any",
                "scrambled",
                "no safe address from the surrogate name and domain: drawn names and domain words",
            ),
        ]
        new, level = state.draw_chain(text, levels, "email")
        return chosen(new, level)


def _spells_a_name(local: str, state: DocumentState) -> bool:
    """Does a rebuilt local part hold a name word of the note's people inside a letter run? The
    whole-word check of every draw cannot see "garcia" in "mgarcia"."""
    letters = ascii_fold(local).lower()
    return any(len(word) >= 3 and ascii_fold(word) in letters for word in state.forbidden_words)


class UrlGenerator:
    """URL_WEB: the host is replaced like an institutional e-mail domain; in the path every word
    becomes a domain word and every digit a digit (random letters would give it away)."""

    name = "urls"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def neutral_category(self, text: str, label: str) -> str:
        return "url"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        match = _URL.match(text)
        if match is None or "." not in match["host"]:
            return Surrogate(state.draw("url", text, lambda rng: _words(text, self.data.domain_words, rng)))
        host = match["host"]
        www = "www." if host.lower().startswith("www.") else ""
        core = host[len(www) :]

        def make(rng: random.Random) -> str:
            labels = core.split(".")
            new = [rng.choice(self.data.domain_words) for _ in labels[:-1]] + labels[-1:]
            path = _words(match["rest"], self.data.domain_words, rng)
            return f"{match['scheme'] or ''}{www}{'.'.join(new)}{path}"

        return Surrogate(state.draw("url", text, make))


def _octet(digits: int, rng: random.Random) -> str:
    """An address's octet of as many digits (1–9, 10–99, 100–254)."""
    low, high = {1: (1, 9), 2: (10, 99)}.get(digits, (100, 254))
    return str(rng.randint(low, high))


class IpGenerator:
    """DIREC_PROT_INTERNET: IPv4 octets (1–254) or IPv6 hex digits, format kept."""

    name = "ip"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def neutral_category(self, text: str, label: str) -> str:
        return "ip"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        if re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}", text.strip()):
            octets = text.strip().split(".")
            lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
            # a private network stays private ("10.", "192.168.", "172.16–31."): a hospital's own
            # workstation is no address on the internet; every octet keeps its digits, so an
            # access log's columns stay aligned (the sixteenth set written blind)
            kept = 1 if octets[0] == "10" else 2 if octets[:2] == ["192", "168"] else 0
            private_172 = octets[0] == "172" and 16 <= int(octets[1]) <= 31

            def make(rng: random.Random) -> str:
                new = octets[:kept] + [_octet(len(o), rng) for o in octets[kept:]]
                if private_172:
                    new[:2] = ["172", str(rng.randint(16, 31))]
                return lead + ".".join(new) + trail

            def anywhere(rng: random.Random) -> str:
                return lead + ".".join(str(rng.randint(1, 254)) for _ in range(4)) + trail

            # a log whose addresses use every one of a small network's (81 of "192.168.d.d"):
            # any address, its shape lost, rather than no address at all
            levels = [Level(make, "ip"), Level(anywhere, "ip:any", "anywhere",
                                                 "no same-shape address of the network left: any address")]
            new, level = state.draw_chain(text, levels, "ip")
            return chosen(new, level)
        elif re.fullmatch(r"[0-9A-Fa-f:.]+", text.strip()):

            def make(rng: random.Random) -> str:
                return "".join(
                    rng.choice("0123456789abcdef") if c in "0123456789abcdefABCDEF" else c for c in text
                )
        else:  # not an address at all: every word a domain word, every digit a digit

            def make(rng: random.Random) -> str:
                return _words(text, self.data.domain_words, rng)

        return Surrogate(state.draw("ip", text, make))
