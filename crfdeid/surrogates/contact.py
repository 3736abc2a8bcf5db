"""Contact details: phone and fax numbers, e-mail addresses, URLs and IP addresses.

Phones keep their grouping, an international prefix, and their type: a Spanish mobile (6/7)
stays a mobile and a fixed line (8/9) keeps its two-digit area prefix, like places keep their
province. E-mail addresses whose local part came from a person's name are rebuilt from that
person's surrogate name ("tarregui@…" for Tomás Arregui -> "mcastro@…" for Marta Castro); public
provider domains (gmail.com…, from the pack) are kept and institutional ones replaced.
"""

from __future__ import annotations

import random
import re

from .base import (
    DocumentState,
    Level,
    Surrogate,
    SurrogateFailure,
    ascii_fold,
    chosen,
    fold,
    scramble,
    weighted_choice,
)
from .data import SurrogateData

_EMAIL = re.compile(r"^(?P<local>[^@\s]+)@(?P<domain>[^@\s]+?)(?P<tail>[.,;:)]*)$")
_URL = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)?(?P<host>[^/?#\s:]+)(?P<rest>.*)$", re.IGNORECASE)
_ALPHA_RUN = re.compile(r"[a-z]+")


class PhoneGenerator:
    """NUMERO_TELEFONO and NUMERO_FAX."""

    name = "phones"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def neutral_category(self, text: str, label: str) -> str:
        return "fax" if label == "NUMERO_FAX" else "phone"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: prefix and type kept -> every digit replaced."""
        namespace = f"phone:{label}"
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if len(digits) < 3:
            level = Level(lambda rng: scramble(text, rng), "phone", check_close=len(digits) > 1)
            new, level = state.draw_chain(text, [level], namespace)
            return chosen(new, level)
        compact = "".join(text[i] for i in digits)
        prefix = 0
        if compact.startswith("0034") and len(compact) >= 13:
            prefix = 4
        elif compact.startswith("34") and len(compact) >= 11:
            prefix = 2
        national = compact[prefix:]
        keep = prefix + (1 if national[:1] in ("6", "7") else 2 if national[:1] in ("8", "9") else 0)
        ext = text.lower().find("ext")

        def make(rng: random.Random) -> str:
            out = list(scramble(text, rng))
            for n, i in enumerate(digits):
                if n < keep:
                    out[i] = text[i]
            if ext >= 0:  # an extension is a plain number
                for i in digits:
                    if i > ext:
                        out[i] = rng.choice("0123456789")
            return "".join(out)

        kind = "mobile" if national[:1] in ("6", "7") else "fixed" if national[:1] in ("8", "9") else "other"
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

    def local(self, local: str, state: DocumentState, rng: random.Random) -> str:
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
        if not pieces:  # not made from a name we know: a plausible one from a surrogate name
            given = self.data.given_pool["any"] or self.data.given_pool["f"]
            first = ascii_fold(weighted_choice(rng, given.items, given.cum))
            last = ascii_fold(weighted_choice(rng, self.data.surname_pool.items, self.data.surname_pool.cum))
            sep = next((c for c in local if c in "._-"), "")
            digits = "".join(rng.choice("0123456789") for c in local if c.isdigit())
            base = f"{first}{sep}{last}" if sep or len(local) > 10 else f"{first[0]}{last}"
            return base + digits
        for match in _ALPHA_RUN.finditer(folded):
            run_start, run_end = match.span()
            for i in range(run_start, run_end):
                if taken[i]:
                    continue
                j = i
                while j < run_end and not taken[j]:
                    j += 1
                chunk = folded[i:j]
                if len(chunk) <= 2:
                    new = "".join(initials.get(c) or rng.choice("abcdefghijlmnoprstv") for c in chunk)
                else:
                    new = "".join(rng.choice("abcdefghijlmnoprstuv") for _ in chunk)
                pieces.append((i, j, new))
                taken[i:j] = [True] * (j - i)
        out, cursor = [], 0
        for s, e, new in sorted(pieces):
            out.append(folded[cursor:s] + new)
            cursor = e
        out.append(folded[cursor:])
        return "".join(rng.choice("0123456789") if c.isdigit() else c for c in "".join(out))

    def neutral_category(self, text: str, label: str) -> str:
        return "email"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: rebuilt from the surrogate name and domain -> every letter and
        digit replaced."""
        match = _EMAIL.match(text.strip())
        scrambled = Level(lambda rng: scramble(text, rng), "email")
        if match is None:
            new, level = state.draw_chain(text, [scrambled], "email")
            return chosen(new, level, "not an address: scrambled")
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        try:
            domain: str | None = self.domain(match["domain"], state)
        except SurrogateFailure:
            domain = None

        def make(rng: random.Random) -> str:
            return f"{lead}{self.local(match['local'], state, rng)}@{domain}{match['tail']}{trail}"

        levels = [
            Level(make if domain is not None else None, "email"),
            Level(
                lambda rng: scramble(text, rng),
                "email:any",
                "scrambled",
                "no safe address from the surrogate name and domain: every letter and digit replaced",
            ),
        ]
        new, level = state.draw_chain(text, levels, "email")
        return chosen(new, level)


class UrlGenerator:
    """URL_WEB: the host is replaced like an institutional e-mail domain, the path scrambled."""

    name = "urls"
    phase = 2

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    def neutral_category(self, text: str, label: str) -> str:
        return "url"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        match = _URL.match(text)
        if match is None or "." not in match["host"]:
            return Surrogate(state.draw("url", text, lambda rng: scramble(text, rng)))
        host = match["host"]
        www = "www." if host.lower().startswith("www.") else ""
        core = host[len(www) :]

        def make(rng: random.Random) -> str:
            labels = core.split(".")
            new = [rng.choice(self.data.domain_words) for _ in labels[:-1]] + labels[-1:]
            return f"{match['scheme'] or ''}{www}{'.'.join(new)}{scramble(match['rest'], rng)}"

        return Surrogate(state.draw("url", text, make))


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

            def make(rng: random.Random) -> str:
                return ".".join(str(rng.randint(1, 254)) for _ in range(4))
        elif re.fullmatch(r"[0-9A-Fa-f:.]+", text.strip()):

            def make(rng: random.Random) -> str:
                return "".join(
                    rng.choice("0123456789abcdef") if c in "0123456789abcdefABCDEF" else c for c in text
                )
        else:  # not an address at all: every letter and digit replaced

            def make(rng: random.Random) -> str:
                return scramble(text, rng)

        return Surrogate(state.draw("ip", text, make))
