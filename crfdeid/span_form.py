"""Merged spans whose text does not fit their label, or whose edges are not PHI, tidied.

Run on notes unlike MEDDOCAN's (an emergency report, nursing notes, a social worker's letter,
a paediatric visit, a surgical sheet — invented, ``tests/test_span_form.py``), the tagger left
spans the pseudonymiser then turned into nonsense:

- **the hour of a time of day** tagged as a date: MEDDOCAN annotates no times, and has none
  ("Fecha ingreso: 03/04/2025 14:32" gave the span "14", which became "67:32"). Under the
  MEDDOCAN scheme a time of day, or the hour of one, is not a date span;
- **function words at a span's edge**: "Jiménez Cano en", "Centro … Sangro el", a lone "de"
  between a hospital and its town (which became a second hospital name). No MEDDOCAN gold span
  of a name, place or organisation begins or ends with a lower-case function word;
- **a person under a place, country or e-mail label**: "Dr. Hernández" as a country became
  "Dr. Mauritania"; "Carmen (52 años, enfermera…)" as a town became "Fuenlabrada". A country
  span that is no country of the pack, a town span made of given names that is no place, an
  e-mail or web address without "@" or "." take a person's label when the text says so: a
  title before it (a clinician's or a courtesy one), a kinship word, or given names and
  surnames only; name words in a header field of the patient's name ("Paciente: PUIG I
  FERRER, JORDI") are the patient's, whatever label they got;
- **prose as a name**: a span the tagger doubted, made of words of the language that no name
  table holds ("Ayudante:", "Anestesista:", "Implante: malla…"), or reaching over a column gap
  into one; a title alone ("Sr. D."), a letter with a dot ("F. Nac"), the minutes of a time.

- **a span its label's text can never be** (the third set of notes written blind): a telephone
  with fewer than six digits in its run ("Fax", the "52" of "FGe 52"), the position of a variant
  in HGVS ("5946" of "c.5946del" as a year), a field's key in capitals ("NUHSA:"), a street with
  no letters in a decimal ("1,68 m") or of abbreviations only ("Nº col", "AV OD 1"), a clinical
  acronym as a place ("NAMC", "OIA"), a hospital's department ("Servei de Nefrologia", and the
  word after "Servizo de"), a heading's common words as an organisation ("Cáncer Hereditario"),
  a kind of facility alone ("Centro"); and spans under the wrong label: an age that is a code,
  digits glued to a code's letters as a town, an occupation as an organisation or a place, a
  nickname as a street, a town as a company, a doctor a hospital is named after, a place where a
  report is signed as a person, a relative's name after a kinship word and a comma as an
  organisation, Catalan kinship words and names read as streets; a name cut inside a word, after
  a lower-case lead, at an elision, or before the rest of its place, made whole.

Nothing here removes a character of PHI: the hours and function words dropped are not PHI
under the scheme, and a relabelled span is still replaced.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

import regex

from . import langpack
from .derived import pack_set
from .langpack import LanguagePack, fold
from .lone_names import common_given_names
from .schemes import Scheme
from .types import Span

#: Label schemes whose guidelines annotate no time of day (the MEDDOCAN corpus has none).
SCHEMES_WITHOUT_TIMES = frozenset({"meddocan"})
#: Categories whose spans never begin or end with a lower-case function word.
_NAMED = frozenset({"person_patient", "person_clinician", "person_relative", "person_other",
                    "hospital", "health_centre", "organisation", "town", "region", "country",
                    "location_other"})
#: Closed word classes whose lower-case words are function words.
_FUNCTION_CLASSES = frozenset({"DET", "ADP", "CCONJ", "SCONJ"})
#: A time of day: "14:32", "9:05 h", "14:32:10".
_TIME = regex.compile(r"(?:[01]?\d|2[0-4]):[0-5]\d(?::[0-5]\d)?(?:[ \t]?h\.?)?")
#: What follows the hour of a time: ":32" — not ":32/" or ":32.5" (a ratio, a number).
_MINUTES = regex.compile(r":[0-5]\d(?![\d/.,-]?\d)")
#: A time of day at the end of a date span ("03/04/2025 14:32"), or its hour alone.
_TRAILING_TIME = regex.compile(r"[ \t,]+(?:[01]?\d|2[0-4])(?::[0-5]\d(?::[0-5]\d)?(?:[ \t]?h\.?)?)?$")
#: Between a title and the name it heads: its dot and spacing ("Dr. ", "Sra ").
_TITLE_GAP = regex.compile(r"\.?[ \t]*")
_LETTER = regex.compile(r"\p{L}")
#: Words before "de"/"en" that say a place follows: where one was born, lives or comes from.
_ORIGIN_WORDS = (r"natural(?:es)?|nacid[oa]s?|residentes?|vecin[oa]s?|procedentes?|originari[oa]s?"
                 r"|oriund[oa]s?|vive|viv[íi]a|reside|resid[íi]a|empadronad[oa]s?|municipio"
                 r"|término[ \t]+municipal|localidad|concejo")
#: A birthplace's or home's cue at the start of a place's span, the place after it ("Natural de
#: Iași" as one town span had become a relative, "Noah de Frutos": hostile notes, 2026-12-06).
_CUE_LEAD = regex.compile(rf"(?i:{_ORIGIN_WORDS})[ \t]+(?i:de|en)[ \t]+(?=\p{{Lu}})")
#: A person's age in apposition after a name: ", mujer de 31 años", ", de 8 meses".
_AGE_APPOSITION = regex.compile(
    r"[ \t]*,[ \t]*(?:(?i:mujer|var[óo]n|hombre|niñ[oa]|chic[oa]|joven|señora|señor|paciente)[ \t]+)?"
    r"de[ \t]+\d{1,3}[ \t]*(?:años|meses|semanas|días)(?![\p{L}])")
#: A dash at the end of a span, spacing before it: what separates a name from what follows it.
_TRAILING_DASH = regex.compile(r"[ \t]+[-–—·•|]+$")  # a dash, a middle dot, a bar: "Nuria Escartín ·"
#: A header field whose value is a place, just before a span ("Comarca: Bages", "Localidad:").
_PLACE_FIELD = regex.compile(
    r"(?<![\p{L}])(?i:comarca|localidad|poblaci[óo]n|municipio|provincia|ciudad|pueblo|barrio"
    r"|lugar[ ]de[ ]nacimiento|lugar[ ]de[ ]residencia)[ \t]*:[ \t]*$")
#: A sentence's end between a kinship word and a name: the word is another sentence's ("… del
#: hermano en Rumanía: +40 721 345 678. Natural de Iași").
_SENTENCE_END = regex.compile(r"(?:[\p{L}\p{N}]{4,}|\p{N})\.[ \t]|[!?;][ \t]")
#: Between the two names of a bilingual place.
_BILINGUAL = regex.compile(r"[ \t]*/[ \t]*|-(?=\p{Lu})")
#: Between "GARCÍA LÓPEZ" and "MARÍA" in "GARCÍA LÓPEZ, MARÍA": a comma and spacing.
_COMMA = regex.compile(r"[ \t]*,[ \t]*")
#: Under this mean marginal a tagger's span is one it doubted (MEDDOCAN train+dev: the prose
#: words it tagged as names at the de-identification point all scored under 0.1).
_DOUBT = 0.5
#: A word short enough to be an abbreviation, and a full stop and a number after it ("Pág. 1/2").
_SHORT_WORD = regex.compile(r"\p{Lu}\p{Ll}{1,3}")
_NUMBER_AFTER_STOP = regex.compile(r"\.[ \t]?\d")
#: A number, or a list of numbers parted by commas ("202", "205, 206, 208"): no identifier's
#: groups ("1 58 03 66 136 047 21", a French social security number, stays whatever its label).
_NUMBER_LIST = regex.compile(r"\d{1,4}(?:,[ ]?\d{1,4})*")
#: What a house number follows: a street's last word or abbreviation, a comma or a space between
#: ("Real 41", "C/ Mayor, 12", "s/n"), on the same line.
_AFTER_A_NAME = regex.compile(r"[\p{L}º.][,/-]?[ \t]{0,2}$")  # "Ctra. N-122" too
#: The kinds a doubted surname after a person's name was read as ("Begoña Goikoetxea" with the
#: surname as a company, "Roberto Lamas" as a street).
_SURNAME_AS_PLACE = frozenset({"organisation", "town", "country", "hospital", "street"})
#: Categories a single letter with a dot can be: an initial, the patient's sex ("M.").
_INITIALLED = frozenset({"person_patient", "person_clinician", "person_relative", "person_other", "sex"})
_ABBREVIATION = regex.compile(r"\p{L}\.")
#: A header field's key, then maybe another part of the name and a comma ("Paciente: PUIG I
#: FERRER, "), up to a span.
_FIELD = regex.compile(r"[ \t]*(?P<key>\p{L}+(?:[ \t]+\p{L}+){0,3})"
                       r"(?:[ \t]*/[ \t]*\p{L}+(?:[ \t]+\p{L}+){0,3})?"  # "Apellidos / Abizenak:"
                       r"[ \t]*:[ \t]*(?:[^:,\n]+,[ \t]*)?")
#: An age written as a number and a unit ("64 años", "9 meses").
_AGE = regex.compile(r"\d{1,3}[ \t]*\p{L}+\.?")
#: Every person's category, a relative's too.
_PEOPLE = frozenset({"person_patient", "person_clinician", "person_relative", "person_other"})
#: A column gap in a header laid out in columns: two spaces or more, or a tab.
_GAP = regex.compile(r"[ ]{2,}|\t+")
#: Categories a patient's name is filed under by a tagger that has not seen the header.
_NOT_PEOPLE = frozenset({"town", "region", "country", "organisation", "hospital", "health_centre",
                         "street", "location_other"})
#: People whose span is their name alone (a relative's holds a kinship phrase).
_NAMED_PEOPLE = frozenset({"person_patient", "person_clinician", "person_other"})
#: A street's floor, after its number and a comma ("3º esq", "2ª", "bajo B", "ático").
_FLOOR_START = regex.compile(r"(?i:\d{1,2}[ºª°]|\d{1,2}\.[ºª°o]|bajo|entlo|entresuelo|ático|piso)(?![\p{L}])")
#: The Roman numeral that ends a facility's name ("Sevilla I", "Madrid IV").
_ROMAN_NUMERAL = regex.compile(r"(?:X{0,3})(?:IX|IV|V?I{0,3})(?<=[IVX])")
#: A span's first word, its dot if any, and the space after it.
_LEADING_WORD = regex.compile(r"(?P<word>\p{L}+)(?P<dot>\.)?[ \t]+(?=\p{Lu})")
#: Up to three words after a span, on its line.
_NEXT_WORDS = regex.compile(r"(?:[ ]\p{L}+){1,3}")
#: A comma, then a capitalised word: where a second name may start in a span of two people.
_COMMA_THEN_CAPITAL = regex.compile(r",[ \t]+(?=\p{Lu})")
_WORDS = regex.compile(r"[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*")
_LETTERS = regex.compile(r"[\p{L}\p{M}]+")
#: The rest of a compound surname after a name span: a hyphen and a capitalised word ("-Gallardo").
_HYPHENED = regex.compile(r"-\p{Lu}[\p{L}\p{M}]+(?:-\p{Lu}[\p{L}\p{M}]+)*(?![\p{L}\p{M}\d])")
#: A house number after a street's name: ", 119-129", " 45", ", nº 12" (not a postal code).
_HOUSE_NUMBER = regex.compile(
    r",?[ \t]*(?:n[º°o]\.?[ \t]*)?\d{1,4}(?:[ \t]*[-–][ \t]*\d{1,4})?(?![\d/.:,]?\d)")
#: A span starting at a street type already: a word and a dot, or a known abbreviation glyph.
_LEADING_TYPE = regex.compile(r"\p{L}{1,5}\.|\p{L}/|\p{L}º|(?i:calle|avenida|plaza|paseo|carrer|rúa|kalea)\b")
#: Categories whose spans hold numbers that may be cut out of a longer code.
_NUMBERED = frozenset({"id_patient", "id_case", "id_insurance", "id_licence", "id_employee", "id_other",
                       "phone", "fax", "town", "date"})
#: A capitalised article right before a span, which may begin a town's name ("Los Llanos de Aridane").
_ARTICLE_BEFORE = regex.compile(r"(?<![\p{L}])(?:La|Las|Los|El|A|O|As|Os|L['’])[ ]?$")
#: A thousands group and its dot right before a number ("1.204." of "1.204.557").
_GROUP_BEFORE = regex.compile(r"(?<![\p{L}\p{N}.,])\d{1,3}\.$|(?<=\d\.)\d{3}\.$")
#: A group of three or four digits, and one more after one space ("CIP: 1504 3327 8812").
_DIGIT_GROUP = regex.compile(r"\d{3,4}")
_NEXT_GROUP = regex.compile(r" (?P<g>\d{3,4})(?![\p{L}\p{N}])")
#: Capitals glued to a number, a word of their own ("URBE" of "URBE730215").
_CAPITALS_GLUED = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}{2,6}$")
#: Letters glued to five digits or more, maybe a letter after them: a code, no place.
_LETTERS_DIGITS = regex.compile(r"\p{L}+\d{5,}\p{L}?")
#: Between a kinship word and a relative's name: a comma, maybe after whose or which one ("la
#: hija de ambos, Milagros": the eleventh set written blind, where the tagger made her a town).
_KIN_GAP = regex.compile(r"(?:[ ](?:de[ ]ambos|de[ ]los[ ]dos|de[ ]las[ ]dos|mayor|menor|pequeñ[oa]"
                         r"|mediano|mediana))?,[ ]")
#: A kinship word and a comma right before a span ("el padre, ").
_KIN_COMMA_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(?P<kin>\p{Ll}+)[ \t]*,[ \t]*$")
#: A possessive and a kinship word just before a span: "su hija " of "su hija Maite".
_KIN_OWNED_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(?i:su|sus|mi|mis)[ \t]+(?P<kin>\p{Ll}+)[ \t]+$")
#: Words before an occupation that say it was one's ("antigua costurera", "ex minero").
_FORMER = frozenset({"antiguo", "antigua", "ex"})
#: Capitalised words ("Járkov", "Santo Domingo").
_CAPITALISED_WORDS = regex.compile(r"\p{Lu}[\p{L}'’-]*(?:[ \t]+(?:de|del|la|\p{Lu}[\p{L}'’-]*))*")
#: Spaces only, or nothing.
_SPACES_ONLY = regex.compile(r"[ \t]*")
#: A hyphen and the word after it ("-real" of "Vila-real").
_HYPHEN_WORD = regex.compile(r"-\p{L}+(?![\p{L}\p{N}])")
#: Identifiers' categories: codes whose letters and digits the tagger may cut apart.
_IDENTIFIERS = frozenset({"id_patient", "id_case", "id_insurance", "id_licence", "id_employee", "id_other",
                          "device", "vehicle"})
#: What joins the parts of a code ("TR-2025/00417", "AT-48-552903").
_JOINERS = frozenset("-/")
#: A part of a code: digits with maybe letters ("2025", "B12"), or a short prefix in capitals ("TR").
_CODE_PART = regex.compile(r"[\p{L}\p{N}]*\p{N}[\p{L}\p{N}]*|\p{Lu}{1,4}")
#: A whole date written in numbers ("12/03/2024", "12-3-24").
_DATE_CODE = regex.compile(r"\d{1,2}([-/.])\d{1,2}\1\d{2,4}")
#: More of a name after a word: a capitalised word, maybe after "de" ("Hospital de León").
_NAME_GOES_ON = regex.compile(r"[ ](?:(?:de|del|la)[ ])?\p{Lu}")  # one space: not over a column gap
#: A company's legal form after its name: " S.L.", ", S.A.", " SLU" (not "S" alone).
_LEGAL_FORM = regex.compile(r",?[ \t]+S\.[ \t]?[AL]\.(?:[ \t]?U\.)?|,?[ \t]+S(?:LU|L|A)(?![\p{L}\p{N}])")
#: A foreign company's legal form after a span, maybe after more capitalised words of the name.
_FOREIGN_AFTER = regex.compile(
    r"(?:[ ]\p{Lu}[\p{L}-]*){0,3}[ ](?:GmbH|AG|Ltd\.?|Inc\.?|LLC|PLC|S\.p\.A\.|B\.V\.|N\.V\.|SARL)"
    r"(?![\p{L}\p{N}])")
#: A foreign company's legal form ending a name: "Lumeris Biopharma GmbH", "Acme Ltd." (searched
#: from a run of spaces' first only: from each space the search had read the rest of the run).
_FOREIGN_FORM = regex.compile(
    r"(?<![ \t])[ \t]+(?:GmbH|AG|Ltd\.?|Inc\.?|LLC|PLC|plc|S\.p\.A\.|B\.V\.|N\.V\.|SAS|SARL)$")
#: The rest of a legal form whose "S" a span ends with: ".L.", ".A.", ".L.U.".
_LEGAL_REST = regex.compile(r"\.[ \t]?[AL]\.(?:[ \t]?U\.)?")
#: What a street's name after its type and a particle may be read as: a street named after a
#: place or a person ("Pza. de España", "Avinguda de Fernando Abril Martorell").
_STREET_NAME_PIECES = frozenset({"street", "country", "town", "location_other", "person_patient",
                                 "person_clinician", "person_relative", "person_other"})
#: A street span's end that is no street's end: a particle ("Pza. de", "C/ de la").
_ENDS_WITH_PARTICLE = regex.compile(r"(?<![\p{L}])(?:de|del|de la|de los|de las|d['’])$")
#: Spacing on one line.
_SPACE_ONLY = regex.compile(r"[ \t]*")
#: A capitalised word after a space, on the same line.
#: A name of two to five capitalised words between quotation marks on one line.
_QUOTED = regex.compile(
    r"(?P<q>[\"“«'])"
    r"(?P<name>\p{Lu}[\p{L}’'-]*(?:[ ](?:(?:de|del|la|las|los|el|y)[ ])?\p{Lu}[\p{L}’'-]*){1,4})"
    r"(?:[\"”»'])")
#: Labels of proper names, which a lower-case word of the language alone cannot be.
_PROPER = frozenset({"hospital", "health_centre", "organisation", "town", "country", "street",
                     "person_patient", "person_clinician"})
_SINGLE_WORD = regex.compile(r"\p{L}+")
#: One more title-case word after a name, where the phrase ends: " Mery," (one space only).
_RUNS_ON = regex.compile(r" (?P<word>\p{Lu}(?:\p{Ll}[\p{L}\p{M}]+|[\p{Lu}\p{M}]+))"
                         r"(?=[ \t]*(?:[,.;:)\n·|]|$)|[ \t]{2,}|\t)")  # "…Albéniz Lacasa · N.º col."
#: The given names after "SURNAMES, " in a header field, in capitals or initials, up to the end of
#: the field: a column gap, the line's end or a parenthesis ("KOVALENKO, OKSANA      NHC").
_GIVEN_AFTER_COMMA = regex.compile(
    r",[ ](?P<given>\p{Lu}[\p{Lu}\p{M}’'-]*\.?(?:[ ]\p{Lu}[\p{Lu}\p{M}’'-]*\.?){0,2})"
    r"(?=[ \t]{2,}|\t|[ \t]*(?:\r?\n|$|\())")
#: A sex field's key right before a value ("Sexua / Sexo: ", "Sexe: ").
_SEX_KEY_BEFORE = regex.compile(r"(?i:sex[oeua]{1,2})[ \t]*:[ \t]*$")
#: The same field's name in another language after a slash ("Adina / Edad:", "Izena / Nombre:").
_BILINGUAL_KEY_AFTER = regex.compile(r"[ \t]*/[ \t]*\p{Lu}\p{Ll}+(?:[ ]\p{L}+){0,3}[ \t]*:")
#: Where a header's field name starts: a line's start, or two spaces or a tab after another field.
_KEY_START_BEFORE = regex.compile(r"(?:^|\n|[ ]{2,}|\t)$")
#: The word after a number: its unit ("79 años").
_UNIT_AFTER = regex.compile(r"[ \t]+(?P<unit>\p{L}+)")
#: Where a sentence opens: a line's start, a full stop before (not an abbreviation's, "Col.
#: Condesa"; not a field's colon: "Localidad/ Provincia: Granda." is a place).
_OPENS = regex.compile(r"(?:^|\n|(?<!(?<![\p{L}])\p{Lu}\p{Ll}{0,3})[.!?][ \t]+|\\n)[ \t]*$")
#: The "T" and hour of an ISO 8601 stamp, glued to its date ("2026-11-29T10:12:00Z").
_ISO_TIME_PART = regex.compile(r"T\d{1,2}(?::\d{2}(?::\d{2})?Z?)?")
#: A slash and a number after a letter: sex and age written together ("V / 58", "M/31").
_SLASH_NUMBER = regex.compile(r"[ \t]*/[ \t]*\d{1,3}(?![\p{N}])")
#: A field's key, then surnames in capitals and a comma, right before a span ("Paciente:
#: WHITFIELD, " before "MARGARET ANNE").
_SURNAME_COMMA_BEFORE = regex.compile(
    r"\p{L}[ \t]*:[ \t]*(?P<surname>\p{Lu}[\p{Lu}\p{M}’'-]+(?:[ ]\p{Lu}[\p{Lu}\p{M}’'-]+){0,2}),[ ]$")
#: A name in apposition after a kinship word: ", Geoffrey," (one to three capitalised words).
_APPOSED = regex.compile(r",[ ](?P<name>\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+){0,2})(?=[ \t]*[,.;:)\n])")
#: A month and a year in numbers ("02/2024", "2-2024").
_MONTH_YEAR = regex.compile(r"(?:0?[1-9]|1[0-2])[/.-](?:19|20)\d{2}")
#: A word of time just before: "desde", "hasta", "en", "de", "el".
_TIME_WORD_BEFORE = regex.compile(r"(?<![\p{L}])(?i:desde|hasta|en|de|el|entre)[ \t]+$")
#: A kinship word, a comma, a space or a bracket, and a capitalised name of one to four words
#: ("madre, Fadma Mohand", "Germana Laia", "pare (Narcís Casadevall").
_KIN_AND_NAME = regex.compile(
    r"(?P<kin>\p{L}+)(?P<sep>,[ ]|[ ]\(|[ ])"
    r"(?P<name>\p{Lu}[\p{L}’'-]+(?:[ ](?:de[ ]|del[ ]|i[ ])?\p{Lu}[\p{L}’'-]+){0,3})")
#: A relative's given name in brackets after the kinship word, any case: " (amparo)", " (Pilar)".
_BRACKETED_NAME = regex.compile(r"[ ]?\((?P<name>\p{L}+(?:[ ]\p{L}+)?)\)")
_NEXT_WORD = regex.compile(r"[ \t]+(?P<word>\p{Lu}[\p{L}\p{M}]+)(?![\p{L}\p{M}\d'’-])")
#: The reference sequence of a variant written in HGVS just before a span: "c." of "BRCA2
#: c.5946del", "p.Ser" of "p.Ser1982fs" (a letter alone, a dot, and the token up to the span).
_HGVS = regex.compile(r"(?<![\p{L}\p{N}])[cgmnopr]\.[\p{L}\p{N}_*>-]*$")
#: A law's or a decree's number and year, and what names it right before ("Ley 35/2015", "RD
#: 1299/2006", "Real Decreto 1093/2017"): MEDDOCAN annotates none.
_LAW = regex.compile(r"(?<![\p{L}\p{N}])(?i:ley(?:[ ]org[áa]nica)?|real[ ]decreto(?:[ ]legislativo|-ley)?"
                     r"|r\.?[ ]?d\.?(?:[ ]?l\.?)?|decreto(?:[ ]foral|[ ]legislativo|-ley)?|orden"
                     r"|directiva|reglamento(?:[ ]\(?ue\)?)?)[ \t]*(?:n\.?[º°o]\.?[ \t]*)?"
                     r"(?P<number>\d{1,5}/(?:19|20)?\d{2})(?![\p{N}/])")


@lru_cache(maxsize=4)
def _law_numbers(text: str) -> tuple[tuple[int, int], ...]:
    """Where the text names a law's or a decree's number and year (asked per span of a note)."""
    return tuple(m.span("number") for m in _LAW.finditer(text))
#: A line of numbers only, four or more (a table's row, maybe a date first): no telephone's.
_NUMBERS_ONLY = regex.compile(r"[ \t]*(?:[\d][\d/.,:-]*[ \t]+){3,}[\d][\d/.,:-]*[ \t]*")
#: A run of a telephone number's digits and separators around a span.
_PHONE_RUN = regex.compile(r"\+?\(?\d(?:[\d./()-]|[ \t](?![ \t]))*\d|\d")  # never over a column gap
#: The fewest digits of a telephone or fax number (MEDDOCAN train+dev: every one has 6 or more).
_PHONE_DIGITS = 6
#: A hospital's department, which MEDDOCAN never annotates (528 "Servicio/Unidad/Sección de …"
#: in train+dev, none a span): not a health service ("Servicio de Salud del Principado…").
_DEPARTMENT_KINDS = (r"(?i:servicio|servei|servizo|unidad|unitat|unidade|ugc|secci[óo]n|secció"
                     r"|departamento|departament)")
_DEPARTMENT = regex.compile(
    _DEPARTMENT_KINDS + r"[ ](?:de|del|d['’])(?:[ ]|(?<=['’]))(?!(?i:salud|salut|saúde|la[ ]salut)\b)")
#: A department's kind and its "de" just before a span: "Servizo de " of "Servizo de Cardioloxía".
_DEPARTMENT_BEFORE = regex.compile(r"(?<![\p{L}])" + _DEPARTMENT_KINDS + r"[ ](?:de|del|d['’])[ ]?$")
#: "de" and a place's name of up to four capitalised words after a hospital's span.
_OF_TOWN = regex.compile(r"[ ]de[ ](?P<town>\p{Lu}[\p{L}\p{M}'’-]*(?:[ ](?:(?:de|del|la|las|los|el)[ ])?"
                         r"\p{Lu}[\p{L}\p{M}'’-]*){0,3})(?![\p{L}\p{N}])")
#: The words a place's name may go on with, one at a time: " de Compostela", " DE LA FRONTERA".
_PLACE_GOES_ON = regex.compile(r"[ ](?:(?i:de|del|la|las|los|el|d['’])[ ])?[\p{Lu}][\p{L}\p{M}'’-]*")
#: A comma and a date after a place that opens a line: where and when a report was signed.
_SIGNED_DATE = regex.compile(r",[ \t]*(?:a[ ])?\d{1,2}(?:[ ]de[ ]|[ ]d['’]|[/.-])")
#: An initial and its dot before a span: "U. " of "U. Castro".
_INITIAL_BEFORE = regex.compile(r"(?<![\p{L}])\p{Lu}\.[ ]$")
#: The rest of a decimal number after or before a span of digits ("1" of "1,68 m").
_DECIMAL_AFTER = regex.compile(r"[.,]\d")
_DECIMAL_BEFORE = regex.compile(r"\d[.,]$")
#: An extension's or a pager's word before a short number, which is then a telephone's.
_EXTENSION_BEFORE = regex.compile(
    r"(?<![\p{L}])(?i:ext|extensi[óo]n|busca|buscapersonas)\.?[ \t]*[:.]?[ \t]*$")
#: Between a person's span and their nickname: a bracket and/or a quotation mark.
_NICKNAME_GAP = regex.compile(r"[ \t]*[(\"“«'][ \t]*[\"“«']?")
#: A score after a scale's name ("Glasgow 15", "Barthel 65/100", "Pfeiffer: 7").
#: The prepositions a place follows in the narrative ("vive en Nador", "se trasladó a Quito").
_PLACE_PREPOSITION_BEFORE = regex.compile(r"(?<![\p{L}])(?:en|a|desde|hasta|hacia)[ \t]+$")
#: "en" and a capitalised place ending a person's span ("Neus en Gandia").
_IN_TOWN = regex.compile(r"[ \t]+en[ \t]+(?P<town>\p{Lu}[\p{L}'’-]+"
                         r"(?:[ ](?:de[ ](?:la[ ]|los[ ]|las[ ])?|del[ ])?\p{Lu}[\p{L}'’-]+){0,3})$")
#: One to three capitalised words and nothing else: a name ("Lin Wei").
_NAME_ONLY = regex.compile(r"\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+){0,2}")
_SCORE_AFTER = regex.compile(r"[ \t]*[:=]?[ \t]*\d")
#: A scale's, test's or sign's word before its name ("escala de Barthel", "signo de Murphy").
_SCALE_BEFORE = regex.compile(r"(?i:escala|test|índice|indice|signo|maniobra|clasificación|clasificacion"
                              r"|estadio|criterios|puntuación|puntuacion|score)[ \t]+(?:de[ \t]+)?$")
#: The key of a number, abbreviated ("Nº Col", "Núm", "Nº"), which no name or street is.
#: A transcript's speaker turn up to its text: a time of day, the speaker, a colon ("[10:03] Dra.
#: Saiz: ").
_SPEAKER_TURN = regex.compile(r"[ \t]*(?:\[\d{1,2}:\d{2}(?::\d{2})?\]|\d{1,2}:\d{2})[ \t]+[^:\n]{1,40}:[ \t]")
#: The lower-case words a street's name holds ("Camino de las Viñas", "Rúa da Paz").
_STREET_PARTICLES = frozenset({"de", "del", "la", "las", "los", "el", "y", "i", "da", "do", "dos", "das",
                               "dels", "les", "d", "l"})
#: Languages a bilingual note heads its parts with ("[CATALÀ]", "CASTELLANO:"): no place.
_LANGUAGE_NAMES = frozenset(fold(w) for w in (
    "castellano", "español", "català", "catalán", "valencià", "valenciano", "galego", "gallego",
    "euskara", "euskera", "aranés", "aranès", "asturianu", "english", "inglés", "français", "francés",
    "deutsch", "alemán", "português", "portugués", "italiano", "árabe", "rumano", "română"))
#: A line that is a heading alone: a word in brackets, or followed by a colon.
_HEADING = regex.compile(r"[ \t]*[\[(]?[ \t]*\p{L}+[ \t]*[\])]?[ \t]*:?[ \t]*")
#: A field's key that is acronyms joined by a hyphen or a slash ("CIP-SNS", "TSI/CIP").
_ACRONYM_KEY = regex.compile(r"\p{Lu}{2,6}(?:[-/]\p{Lu}{2,6})+")
_ACRONYM_TAIL = regex.compile(r"(?:[-/]\p{Lu}{2,6})+(?![\p{L}\p{N}])")
#: A colon, then a title: what comes before is a field's key ("Subinvestigadora: Dra. …").
_KEY_BEFORE_TITLE = regex.compile(r"[ \t]*:[ \t]*(?:Dra?|Dña|Sra?|Srta|D|Prof)\.[ \t]")
#: A preposition before a place a date's span took with it ("en Burela").
_PLACE_LEAD = regex.compile(r"(?i:en|de|a)[ \t]+")
_NUMBER_KEY = regex.compile(r"(?i:n[º°o]\.?|n[uú]m\.?)(?:[ \t]*(?i:col|colegiado|de[ \t]+col)\.?)?|(?i:col)")
#: A number and lower-case words ("7 errores").
_NUMBER_THEN_WORDS = regex.compile(r"\d+[ \t]+\p{Ll}+(?:[ \t]+\p{Ll}+)*")
#: A town (and its postal code) after a comma at a street span's end ("…, 1º izda., Huesca (22003").
_TOWN_AFTER_STREET = regex.compile(
    r",[ \t]*(?P<town>\p{Lu}[\p{L}'’-]*(?:[ \t]+(?:de|del|de[ \t]+la|la|el|los|las|\p{Lu}[\p{L}'’-]*))*)"
    r"(?:[ \t]*\(?(?P<code>\d{5})\)?"
    # or its province in brackets ("…, 1.º B, Puerto del Rosario (Las Palmas": the ninth set)
    r"|[ \t]*\((?P<province>\p{Lu}[\p{L}'’-]*(?:[ \t]+\p{Lu}[\p{L}'’-]*)*)\)?)?$")
#: A postal code and its town after a comma at a street span's end ("…, 2.º A, 13600 ALCÁZAR DE SAN JUAN").
_CODE_TOWN_AFTER_STREET = regex.compile(
    r",[ \t]*(?P<code>\d{5})[ \t]+(?P<town>\p{Lu}[\p{L}'’-]*(?:[ \t]+(?:de|del|de[ \t]+la|la|el|los|las"
    r"|\p{Lu}[\p{L}'’-]*))*)$")
#: The categories a piece of a name beside the person's may have been read as.
_PLACE_OR_BODY = frozenset({"town", "street", "organisation", "hospital"})
#: One to three capitalised words, in capitals or not, and nothing else ("Popescu", "BERIDZE").
_NAME_WORDS_ONLY = regex.compile(r"\p{Lu}[\p{L}'’-]+(?:[ ]\p{Lu}[\p{L}'’-]+){0,2}")
#: A line's field key and its colon, nothing after ("Paciente: ").
_FIELD_KEY_ONLY = regex.compile(r"[ \t]*(?P<key>\p{L}+(?:[ \t]+\p{L}+){0,3})[ \t]*:[ \t]*")
#: After an initial: its dot and one to three capitalised words of a name ("J." + " Expósito Ruano").
_INITIAL_THEN_NAME = regex.compile(
    r"\.[ ](?P<first>\p{Lu}\p{Ll}+)(?:[ ](?:(?:de|del|de[ ]la)[ ])?\p{Lu}\p{Ll}+){0,2}(?![\p{L}\p{N}])")
#: A devotional given name's particle and name right after a span (" del Cisne").
_DEVOTION_AFTER = regex.compile(r"[ ](?:del|de[ ]la|de[ ]los|de[ ]las)[ ]\p{Lu}\p{Ll}+(?![\p{L}\p{N}])")
#: A devotional given name's particle and name, as a span of its own ("DEL PILAR", "de los Ángeles").
_DEVOTION = regex.compile(r"(?i:del|de[ ]la|de[ ]los|de[ ]las)[ ](?P<name>\p{Lu}[\p{L}]+)")
#: A title right before a name ("Dr. ", "Sra. ").
_TITLE_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(?P<title>\p{L}{1,9}|Dª)(?P<dot>\.)?[ \t]+$")
#: Where one comes from or lives, before a town ("natural de Haro", "vecino de", "residente en").
_ORIGIN_BEFORE = regex.compile(rf"(?<![\p{{L}}])(?i:{_ORIGIN_WORDS})[ \t]+(?:de|en)[ \t]+$")
#: Where a business or a workplace is, a word before its town: "trabaja en una empresa de Alcañiz",
#: "una explotación de almendros de Agramón", "canteras … en el término de Ciutadella".
_PREMISES_BEFORE = regex.compile(
    r"(?<![\p{L}])(?i:empresa|explotaci[óo]n|finca|granja|f[áa]brica|cooperativa|taller|restaurante"
    r"|hotel|tienda|comercio|cantera|mina|término)(?:[ \t]+\p{Ll}+){0,3}?[ \t]+(?:de|en)[ \t]+$")
#: A town's part named before it ("el barrio de Retuerto").
_DISTRICT_BEFORE = regex.compile(r"(?<![\p{L}])(?i:barrio|barriada|distrito|pedan[íi]a)[ \t]+(?:de[ \t]+)?$")
#: A field's key: a colon after the span, then spacing and the value on the same line.
#: A digit group's neighbours inside a code or a number ("V-14.872.305"): a dot, hyphen or slash.
_CODE_MARKS = frozenset(".-/")
_KEY_COLON = regex.compile(r"[ \t]*(?:\([^()\n]{1,30}\)[ \t]*)?:[ \t]*[^\s]")  # "PASAPORTE (MARRUECOS): UH…"


@dataclass(frozen=True)
class SpanForm:
    """The tidying of one scheme and pack, as plain data (picklable, like ``LoneNames``)."""

    category: tuple[tuple[str, str], ...]  # label -> category of the scheme
    times_are_phi: bool
    function_words: frozenset[str]
    countries: frozenset[str]  # folded
    places: frozenset[str]  # folded: towns, provinces, regions, foreign places
    given: frozenset[str]  # folded given names borne by many (the pack's lone-name threshold)
    all_given: frozenset[str]  # folded, every given name of the pack's table
    surnames: frozenset[str]  # folded surnames
    titles: tuple[tuple[str, str], ...]  # folded form -> role ("clinician", "courtesy"…)
    kinship: frozenset[str]  # folded
    fields: frozenset[str]  # folded header keys that hold the patient's name
    age_units: frozenset[str]  # folded words of an age's unit ("años", "meses")
    language: str
    patient: str | None
    clinician: str | None
    relative: str | None
    street_types: tuple[str, ...] = ()  # every written form of the pack's street types
    facility_types: tuple[str, ...] = ()  # every written form of the pack's facility types
    closed: frozenset[str] = frozenset()  # the pack's closed-class words ("no", "al", "ya")
    stop: frozenset[str] = frozenset()  # the pack's stop list: names that are mostly words ("Vigil")
    sex_words: frozenset[str] = frozenset()  # folded words that give a sex ("mujer", "home")
    clinical: frozenset[str] = frozenset()  # the pack's medical acronyms, as written ("NAMC", "HTA")
    organisation_kinds: frozenset[str] = frozenset()  # folded one-word kinds ("facultad", "fundación")
    professions: frozenset[str] = frozenset()  # folded forms of the profession table
    retired: frozenset[str] = frozenset()  # folded words after an occupation that are none ("jubilado")
    calendar: frozenset[str] = frozenset()  # folded month and weekday names, abbreviations, regional forms
    eponyms: frozenset[str] = frozenset()  # folded names of clinical scales and signs ("pfeiffer")
    devotional: frozenset[str] = frozenset()  # folded "del carmen", "de los angeles": a given name's end

    @classmethod
    def for_pack(cls, scheme: Scheme, pack: LanguagePack | None) -> SpanForm:
        """The step for ``scheme``'s labels; without a pack only the time and function-word
        parts that need none (no function words either: the pack lists them)."""
        function_words: frozenset[str] = frozenset()
        countries = places = given = all_given = surnames = kinship = fields = units = frozenset()
        titles: tuple[tuple[str, str], ...] = ()
        if pack is not None:
            function_words = frozenset(w for w, c in pack.word_classes.items()
                                       if c in _FUNCTION_CLASSES and w == w.lower())
            countries = folded_entries(pack, ("country",))
            places = folded_entries(pack, ("municipality", "province", "community", "territory",
                                           "foreign_place"), parts=True)
            places |= {fold(island) for island in pack.island_names()}  # "(Lanzarote)" as a country
            if pack.lone_names and "given_name" in pack.tables:
                given = common_given_names(pack, pack.lone_names["min_bearers"])
            surnames = folded_entries(pack, ("surname",))
            all_given = folded_entries(pack, ("given_name",))
            titles = tuple(sorted((form, h.role) for form, h in pack.honorifics.items()))
            kinship = frozenset(fold(k) for k in pack.kinship)
            fields = frozenset(fold(f) for f in (pack.surrogate.get("patient_name_fields") or ()))
            units = frozenset(fold(w) for words in (pack.surrogate.get("age_units") or {}).values()
                              for w in words if len(w) > 2)
        return cls(
            tuple(sorted(scheme.labels.items())),
            scheme.name not in SCHEMES_WITHOUT_TIMES,
            function_words, countries, places, given, all_given, surnames, titles, kinship, fields, units,
            pack.language if pack is not None else "none", scheme.label_for("person_patient"),
            scheme.label_for("person_clinician"), scheme.label_for("person_relative"),
            street_types=tuple(sorted({f for forms in pack.street_types.values() for f in forms}))
            if pack is not None else (),
            facility_types=tuple(sorted({f for forms in pack.facility_types.values() for f in forms
                                         if len(f) > 3 and f.replace(" ", "").isalpha()}))
            if pack is not None else (),
            closed=frozenset(fold(w) for w in pack.word_classes) if pack is not None else frozenset(),
            stop=frozenset(pack.stopwords) if pack is not None else frozenset(),
            sex_words=frozenset(fold(w) for words in (pack.surrogate.get("sex_words") or {}).values()
                                for w in words if " " not in w and len(w) > 2) if pack is not None
            else frozenset(),
            clinical=frozenset(pack.surrogate.get("medical_acronyms") or ()) if pack is not None
            else frozenset(),
            organisation_kinds=frozenset(fold(k) for k in (pack.surrogate.get("institutions") or {})
                                         if " " not in k and k != "default") if pack is not None
            else frozenset(),
            professions=folded_entries(pack, ("profession",)) if pack is not None else frozenset(),
            retired=frozenset(fold(w) for w in (pack.lone_professions.get("after") or ()) if " " not in w)
            if pack is not None else frozenset(),
            eponyms=frozenset(fold(w) for w in (pack.surrogate.get("clinical_eponyms") or ()))
            if pack is not None else frozenset(),
            devotional=frozenset(fold(f"{p} {n}") for p, names in
                                 (pack.surrogate.get("devotional_names") or {}).items() for n in names)
            if pack is not None else frozenset(),
            calendar=frozenset(fold(w).rstrip(".") for c in (*pack.months, *pack.weekdays)
                               for w in (c.name, *c.abbreviations, *(f for _, _, f in c.forms)))
            if pack is not None else frozenset(),
        )

    @cached_property
    def _category(self) -> dict[str, str]:
        return dict(self.category)

    @cached_property
    def category_labels(self) -> tuple[tuple[str, str], ...]:
        """(category, label) for the categories of one label in the scheme."""
        labels: dict[str, list[str]] = {}
        for label, category in self.category:
            labels.setdefault(category, []).append(label)
        return tuple((c, ls[0]) for c, ls in labels.items() if len(ls) == 1)

    @cached_property
    def _titles(self) -> dict[str, str]:
        return dict(self.titles)

    def __call__(self, text: str, spans: Iterable[Span]) -> list[Span]:
        category = self._category
        sex = dict(self.category_labels).get("sex")
        patient_label = dict(self.category_labels).get("person_patient")
        out: list[Span] = []
        ordered = self._given_names_as_other(text, sorted(spans, key=lambda s: (s.start, s.end, s.label)))
        absorbed = 0  # the end of the last hyphenated compound made whole: spans inside it go
        quoted: dict[int, tuple[list[int], list[regex.Match[str]]]] = {}  # by line: ``_quoted_whole``
        for i, span in enumerate(ordered):
            kind = category.get(span.label)
            if not span.fragments and span.end <= absorbed:
                continue  # "Lohse" (as a company) of "Ingrid Bauer-Lohse"
            if not span.fragments and (greeting := _GREETING.match(text, span.start, span.end)) is not None:
                # "Hola IONUT" as a street, "Dear GRAHAM" as a clinician (an SMS log): the name
                # greeted, the patient's unless the tagger named someone else
                span = replace(span, start=greeting.end(),
                               label=span.label if kind in _PEOPLE else patient_label or span.label)
                kind = category.get(span.label)
            if kind == "profession" and not span.fragments and (named := self._named_after(text, span)):
                # "a la auxiliar Loli" as an occupation had become "a la ingeniero biomédico": the
                # name a role is said before is the person (the sixteenth set written blind)
                span, kind = named, category.get(named.label)
            if not span.fragments and (text[span.start] in _QUOTES or text[span.end - 1] in _QUOTES):
                unquoted = _unquoted(text, span)
                if unquoted is None:
                    continue
                span = unquoted
            if (kind in ("town", "country") and not span.fragments and self.devotional
                    and (named := self._devotional_place(text, span)) is not None):
                span, kind = named, category.get(named.label)  # "Estimada María del Pilar:", María a town
                absorbed = max(absorbed, span.end)
            if (kind == "street" and out and category.get(out[-1].label) in _PEOPLE
                    and self._surname_after_name(text, span, out[-1])):
                out[-1] = replace(out[-1], end=span.end)  # "(Roberto Lamas)" with "Lamas" a street
                continue
            if (kind in ("town", "street", "organisation") and out and category.get(out[-1].label) in _PEOPLE
                    and self._surname_before_given(text, span, out[-1],
                                                   ordered[i + 1] if i + 1 < len(ordered) else None)):
                out[-1] = replace(out[-1], end=span.end)  # "LÓPEZ … SEGURA, JUAN ANTONIO": Segura a town
                continue
            if (sex and kind != "sex" and not span.fragments
                    and fold(text[span.start : span.end]) in self.sex_words
                    and _SEX_KEY_BEFORE.search(text, max(0, span.start - 24), span.start)):
                # "Sexua / Sexo: Gizonezkoa" (a bilingual header) with the value as a town
                span, kind = replace(span, label=sex), "sex"
            if (kind in ("street", "organisation") and self.relative and not span.fragments
                    and _NAME_ONLY.fullmatch(text, span.start, span.end)
                    and fold(text[span.start : span.end]) not in self.places):
                span = self._relative_after_kin(text, span)  # "su marido, Lin Wei," as a street
                kind = category.get(span.label)
            if not span.fragments and self._not_its_kind(text, span, kind):
                town = self._department_town(text, span, kind)
                if town is None:
                    continue  # "Fax" or the "52" of "FGe 52" as a phone, "5946" of "c.5946del" as a date
                span, kind = town, "town"  # "Unidad de Conductas Adictivas de Elda": Elda stays
            if kind == "date" and not span.fragments and (town := self._place_as_date(text, span)):
                span, kind = town, "town"  # "Firmado el 21/03/2025 en Burela." with "en Burela" a date
            if (kind in _NAMED or kind == "street") and not span.fragments:
                span = _runaway_cut(text, span)  # "barrio de Triana). Portal con un escalón; …"
            if kind in _NAMED and not span.fragments:
                span = _whole_words(text, span)  # "Lumeris Biopharma Gmb" of "… GmbH"
            # (a sex's value may be a title's word: Catalan "Sexe: Dona" had been dropped as "Dona")
            if not span.fragments and ((kind != "sex" and self._title_only(text, span)) or (
                    not self.times_are_phi and _clock_part(text, span.start, span.end))
                    or (kind not in _INITIALLED and _ABBREVIATION.fullmatch(text, span.start, span.end + 1))
                    or (kind not in _INITIALLED and _doubted_scrap(text, span))
                    or _doubted_key(text, span) or _file_extension(text, span)
                    or (kind in _NOT_PEOPLE and _glued_digits(text, span))):
                continue  # "Sr. D." as a town, the "32" of "08:32" as a country, "F. Nac" as an ID
            if kind == "date" and not self.times_are_phi:
                span = self._without_time(text, span)
            elif kind in _NAMED or kind == "profession":
                # a relative's span holds its kinship phrase ("un hermano"): only a span of
                # function words alone goes; an occupation ends at its noun ("soldador en" of
                # "como soldador en Talleres…" had lost its "en": the twelfth set)
                trimmed = self._trimmed(text, span, edges=kind != "person_relative")
                if kind == "person_relative" and trimmed is not None:
                    # its article stays, a preposition after it goes ("un primo en" of "un primo en
                    # Montreuil" had become "Carmen y": the sixteenth set written blind)
                    trimmed = _without_trailing(text, trimmed, _TRAILING_PREPOSITIONS)
                # an occupation keeps its start ("de casa" of "ama de casa" is made whole below)
                span = (replace(trimmed, start=span.start) if kind == "profession" and trimmed is not None
                        else trimmed)
                if span is not None and self._title_only(text, span):
                    continue  # "La Sra" as a town: a title once its article is gone
                if span is not None and not span.fragments and (dash := _TRAILING_DASH.search(
                        text, span.start, span.end)) is not None and dash.start() > span.start:
                    span = replace(span, end=dash.start())  # "Garazi Etxaniz Urkiola -" (an e-mail after)
                if span is not None and kind in ("town", "country") and not span.fragments \
                        and (cue := _CUE_LEAD.match(text, span.start, span.end)) is not None:
                    span = _shrunk(span, cue.end(), span.end)  # "Natural de Iași" as a town
            if span is not None and kind in _NAMED_PEOPLE and (pair := self._two_people(text, span)):
                out.extend(pair)  # "Amparo Lorca Soria, Rafael Castro Pozoblanco" after "Remitido por:"
                continue
            if span is not None and kind in (*_PEOPLE, "profession"):
                span = _table_cut(text, span)  # "esposa           81    ama" (a table's row)
            if span is not None and kind in _NAMED_PEOPLE:
                span = self._column_cut(text, span)  # "Sofía Medina   Anestesista:"
                span = self._role_cut(text, span)  # "Médico Alfonso Cid" ("Reyes Guillermo …")
                span = self._unit_cut(text, span)  # "Casanovas de la Unidad de Ventilación"
                if self._no_name(text, span) or self._opening_word(text, span):
                    continue  # "Implante: malla de polipropileno" read as a "Nombre:" field
            if span is not None and kind in (*_PEOPLE, "organisation") and span.score is not None:
                span = self._signed_at(text, span)  # "Palma, 7 de agosto de 2024" as a patient
            if span is not None and kind == "person_clinician":
                span = self._doctor_of_facility(text, span)  # "HOSPITAL … DR. BALMIS"
            if span is not None and kind == "person_clinician":
                span = self._relative_after_kin(text, span)  # "el padre, Jordi Casals Vidal, …"
            if span is not None and kind in _NAMED_PEOPLE:
                span = self._facility_as_person(text, span)  # "Parc Hospitalari Martí i Julià"
            if span is not None and category.get(span.label) in _PEOPLE:
                span = self._title_lead(text, span)  # "Doña Pilar Menéndez Álvarez"
                span = self._word_lead(text, span)  # "Soy María del Pilar Cueto Bada"
                span = self._after_name(text, span)  # "su hijo Álvaro informados"
                span = self._verb_inside(text, span)  # "Alba estudia Veterinaria"
                limit = ordered[i + 1].start if i + 1 < len(ordered) else len(text)
                span = self._hyphened(text, span, limit)  # "Ruiz-Gallardo Peñalver"
                span = self._name_runs_on(text, span, limit)  # "Luz" of "su madre, Luz Mery,"
                span = self._devotional_after(text, span, limit)  # "María" of "María del Cisne"
                if kind == "person_relative":
                    span = self._kin_apposition(text, span, limit)  # "su marido, Geoffrey,"
                # the given names after the comma, a span of the same person's label there too
                # ("KOVALENKO" and "OKSANA" as two patients: the retrained model of the twelfth round)
                following = ordered[i + 1] if i + 1 < len(ordered) else None
                if following is not None and following.label == span.label:
                    span, absorbed = self._given_over_next(text, span, following, absorbed)
                span = self._given_after_comma(text, span, limit)  # "KOVALENKO" of "KOVALENKO, OKSANA"
                span = self._surname_before_comma(text, span, out[-1].end if out else 0)
            if span is not None and kind == "age":
                span = self._age_as_code(text, span)  # "Nº empleado: 004517" as an age
            if span is not None and kind == "town":
                span = self._digits_as_code(text, span)  # "MU0170342918" with its digits as a town
            if (span is not None and kind in _NUMBERED
                    and any(c.isdigit() for c in text[span.start : span.end])):
                span = self._whole_token(text, span, out[-1].end if out else 0,
                                         ordered[i + 1].start if i + 1 < len(ordered) else len(text))
                span = self._month_year(text, span)  # "desde 02/2024" as an identifier
            if span is not None and kind == "street":
                span = self._street_whole(text, span, out[-1].end if out else 0,
                                          ordered[i + 1].start if i + 1 < len(ordered) else len(text))
                span, after = self._town_after_street(text, span)  # "…, 1º izda., Huesca (22003"
                if after:
                    out.extend([span, *after])
                    continue
            if span is not None and kind in ("hospital", "health_centre", "organisation", "town"):
                span = self._place_runs_on(text, span, ordered[i + 1].start if i + 1 < len(ordered)
                                           else len(text))  # "… DE SANTIAGO" of "… DE COMPOSTELA"
            if span is not None and kind in ("hospital", "health_centre"):
                span = self._facility_whole(text, span, out[-1].end if out else 0)
            if span is not None and kind == "hospital":
                span = self._town_of_hospital(text, span, ordered[i + 1].start if i + 1 < len(ordered)
                                              else len(text))  # "… Marqués de Valdecilla de Santander"
            if span is not None and kind in _PROPER:
                span = self._quoted_whole(text, span, out[-1].end if out else 0,
                                          ordered[i + 1].start if i + 1 < len(ordered) else len(text), quoted)
            if span is not None and kind in _NOT_PEOPLE:
                span = self._age_or_kin(text, span)  # "64 años" as a street, "Esposa" as a town
            if span is not None and kind == "person_relative":
                span = self._town_as_relative(text, span)  # "(Dos Hermanas)"
            if span is not None and kind in _PEOPLE:
                span, after = self._town_after_person(text, span)  # "su hija Neus en Gandia"
                if after:
                    out.extend([span, *after])
                    continue
            if span is not None and kind in _PEOPLE:
                span = self._place_as_person(text, span)  # "su hermano vive en Nador"
            if span is not None and kind in ("organisation", "town", "country", "hospital", "street"):
                span = self._person_before_age(text, span)  # "Se trata de Blessing Osagie, mujer de 31 años"
            if span is not None and category.get(span.label) in ("town", "country") \
                    and self._doubted_word(text, span):
                continue  # "Dra. Vilaró (Neumología)": a specialty, no town
            if span is not None and category.get(span.label) in (*_PROPER, "email", "url") \
                    and self._doubted_lower(text, span):
                continue  # "no" of "al Hospital Comarcal al no haber camas" as a hospital
            if span is not None and category.get(span.label) == "street" and self._doubted_street(text, span):
                continue  # "Hab. 21" (the room) as a street
            if span is not None and self._doubted_common(text, span, category.get(span.label)):
                continue  # "miope magno" with "magno" as a town, "Lactancia" as a relative
            if span is not None and (kind in _PEOPLE or kind in _NOT_PEOPLE):
                span = self._company(text, span)  # "Estampaciones Artola S" of "… S.L."
            if span is not None and kind in ("organisation", "hospital", "health_centre"):
                span = self._lower_case_lead(text, span)  # "contacto del Consulado de Alemania en Palma"
            if span is not None and kind == "organisation":
                span = self._town_as_organisation(text, span)  # "Sant Feliu de Guíxols" as a company
            if span is not None and kind in ("organisation", "town", "country", "hospital", "street"):
                span = self._after_title(text, span)  # "El Dr. Huerta de Soto" with "Huerta" as a town
            if span is not None and kind in ("town", "country"):
                span = self._acronym_as_organisation(text, span)  # "UPNA" as a country
            if span is not None and kind in ("profession", "organisation", "town", "country", "id_patient",
                                             "person_relative"):
                span = self._occupation(text, span)  # "guardia civil jubilado" as an organisation
            if span is not None and kind in ("id_patient", "id_other"):
                span = self._birthplace_as_id(text, span)  # "natural de Járkov" as an identifier
            if span is not None and kind in ("organisation", "town", "country"):
                span = self._named_relative(text, span, out[-1] if out else None)  # "marido, Petro K."
            if span is not None and kind == "street":
                span = self._nickname(text, span, out[-1] if out else None)  # '("Paquita")'
            if span is not None and (kind in _PEOPLE or kind == "town"):
                # "Los" + "Llanos de Aridane"
                span = self._article_town(text, span, out[-1].end if out else 0)
            if span is not None and kind == "town":
                span = self._hyphened_town(text, span)  # "Vila" of "Vila-real"
            current = category.get(span.label) if span is not None else None
            if span is not None and (current in _PEOPLE or current in ("town", "country", "organisation")):
                # a person's compound takes in the parts tagged apart ("Ingrid Bauer" + "Lohse" as
                # a company); a place's or a company's only text no span holds ("08005-Barcelona",
                # "Somoto-Madriz", "Chiesi-España" are two spans in MEDDOCAN), and a place only
                # the parts before it ("Sevilla-Este": a district after the town)
                people, cut = current in _PEOPLE, span.end
                span = _hyphen_compound(
                    text, span, 0 if people else (out[-1].end if out else 0),
                    len(text) if people else span.end if current in ("town", "country")
                    else (ordered[i + 1].start if i + 1 < len(ordered) else len(text)))
                while out and not out[-1].fragments and out[-1].start >= span.start:
                    out.pop()  # "Schleswig" (a span of its own) of "Schleswig-Holstein"
                if span.end > cut:
                    absorbed = span.end
            if (span is not None and kind in ("country", "town", "email", "url")
                    and category.get(span.label) == kind):  # a town made an occupation stays one
                span = self._refit(text, span, kind, out[-1] if out else None)
                if (span is not None and category.get(span.label) in _NAMED_PEOPLE
                        and self._no_name(text, span)):
                    continue  # "Noche, lluvia, asfalto mojado" with "lluvia" as a country
            if (span is not None and kind in ("hospital", "organisation", "health_centre")
                    and category.get(span.label) == kind and span.score is not None and span.score < _DOUBT
                    and len(_WORDS.findall(text, span.start, span.end)) >= 2
                    and self._names_only(text[span.start : span.end])
                    and (person := self._title_or_kin(text, span)) is not None):
                span = replace(span, label=person)  # "Mi padre es Francisco Aguilera Expósito" as a
                # hospital (at 0.15) had left "la cura de Francisco" in clear: a name's words
                # propagate only from a person's span
            if (span is not None and kind in _PEOPLE and not span.fragments
                    and _PLACE_FIELD.search(text, max(0, span.start - 32), span.start)
                    and (town := dict(self.category_labels).get("town"))):
                span = replace(span, label=town)  # "Comarca: Bages" as a patient had become "Soto"
            elif (span is not None and (kind in _NOT_PEOPLE or kind == "person_clinician") and self.patient
                    and self._patient_field(text, span)):
                span = replace(span, label=self.patient)  # "Paciente: PUIG I FERRER, JORDI"
                # and its given names after the comma, which the person's steps above did not see
                # ("Paciente: PÉREZ COLMENARES, YUSMARY CAROLINA" with the surnames as a town)
                following = ordered[i + 1] if i + 1 < len(ordered) else None
                if following is not None:  # "KOVALENKO" and "OKSANA" both as towns
                    span, absorbed = self._given_over_next(text, span, following, absorbed)
                span = self._given_after_comma(text, span, following.start if following else len(text))
            elif (span is not None and kind in ("person_clinician", "person_patient") and self.relative
                    and self._kin_field(text, span)):
                span = replace(span, label=self.relative)  # "Madre: Leire Montero Arribas, farmacéutica"
            if span is not None and out and kind in _SURNAME_AS_PLACE \
                    and self._surname_after_name(text, span, out[-1]):
                out[-1] = replace(out[-1], end=span.end)  # "Begoña Goikoetxea" with the surname as a company
                continue
            if span is not None:
                out.append(span)
        joined = self._joined(text, self._elided_joined(text, self._streets_joined(text, out)))
        joined = self._not_a_clinicians_role(text, joined)
        # once the halves of an elided name are one ("INSTITUT D" + "'ASSISTÈNCIA…"), a span
        # still ending in an elision cut from its word ends before it
        return [_elision_cut(text, s) if not s.fragments and (category.get(s.label) in _NAMED
                                                              or category.get(s.label) == "street")
                else s for s in joined]

    def _not_a_clinicians_role(self, text: str, spans: list[Span]) -> list[Span]:
        """Without the occupation written right before a clinician's name ("con la
        fisioterapeuta Noelia Garcinuño Sáez"): the clinician's role in the care, no PHI, which
        had become "la veterinaria Helena Arias Díaz"."""
        category = self._category
        return [s for k, s in enumerate(spans)
                if not (category.get(s.label) == "profession" and not s.fragments and k + 1 < len(spans)
                        and category.get(spans[k + 1].label) == "person_clinician"
                        and _SPACES_ONLY.fullmatch(text, s.end, spans[k + 1].start))]

    def _two_people(self, text: str, span: Span) -> list[Span]:
        """A span of two people's full names parted by a comma, each opening with a common
        given name ("Amparo Lorca Soria, Rafael Castro Pozoblanco" after "Remitido por:"), as
        two spans: read as one person's, "Amparo" had taken a surname's place ("Haro Aguilera
        García"). "GARCÍA PEÑA, MARÍA JESÚS" (surnames, then the given names) stays whole."""
        if span.fragments:
            return []
        value = text[span.start : span.end]
        comma = _COMMA_THEN_CAPITAL.search(value)
        if comma is None:
            return []
        first, second = value[: comma.start()], value[comma.end() :]
        first_words, second_words = _WORDS.findall(first), _WORDS.findall(second)
        if (len(first_words) < 2 or len(second_words) < 2 or first.isupper()
                or fold(first_words[0]) not in self.given or fold(second_words[0]) not in self.given):
            return []
        return [replace(span, end=span.start + comma.start()),
                replace(span, start=span.start + comma.end())]

    def _department_town(self, text: str, span: Span, kind: str | None) -> Span | None:
        """The town a department's span ends with ("Unidad de Cuidados Paliativos de Elda"), as
        a town span: the department is no PHI, its town is. None for anything else."""
        town = dict(self.category_labels).get("town")
        if town is None or kind not in ("organisation", "hospital", "health_centre") \
                or not _DEPARTMENT.match(text, span.start, span.end):
            return None
        value = text[span.start : span.end]
        at = value.find(" de ")
        while at >= 0:  # the longest ending that is a place: "… de Villanueva de la Serena"
            rest = value[at + 4 :]
            if rest[:1].isupper() and fold(rest) in self.places:
                return Span(span.start + at + 4, span.end, town, source=span.source, score=span.score)
            at = value.find(" de ", at + 1)
        return None

    def _sentence_as_place(self, value: str) -> bool:
        """A place span that reads as words of a sentence: a capitalised common word, then a
        lower-case word that is no particle ("Habla wolof", the start of "Habla wolof, francés y
        español"), which no table holds as a place."""
        words = _WORDS.findall(value)
        if (len(words) < 2 or not words[0][:1].isupper() or fold(value) in self.places
                or fold(words[0]) in self.kinship):  # "Abuela paterna" as a town: the relative's
            return False
        rest = [w for w in words[1:] if w == w.lower() and fold(w) not in self.closed and "'" not in w
                and "’" not in w]
        return bool(rest) and self._common(words[0].lower())

    def _common(self, word: str) -> bool:
        from .lexicon import lexicon

        try:
            return lexicon().is_common(word, self.language)
        except ValueError:  # no word list for the language
            return False

    def _not_its_kind(self, text: str, span: Span, kind: str | None) -> bool:
        """A span its label's text can never be: a telephone or fax number with fewer than six
        digits in its run of digits ("Fax" of "Fax 981 950 390", which became "Hlb"; the "52"
        of "FGe 52", a lab value), the position of a variant in HGVS ("5946" of "BRCA2
        c.5946del" as a date), the key of a field in capitals no name table holds ("NUHSA" of
        "NUHSA: AN0517392846" as a clinician), a street the tagger doubted with no letters ("1"
        of "1,68 m", which became "calle,68 m") or no word longer than an abbreviation ("Nº col")."""
        value = text[span.start : span.end]
        doubted = span.score is not None and span.score < _DOUBT
        if (kind in _NAMED_PEOPLE and span.score is not None and _SINGLE_WORD.fullmatch(value)
                and _KEY_BEFORE_TITLE.match(text, span.end) and fold(value) not in self.all_given
                and fold(value) not in self.surnames):
            return True  # "Subinvestigadora: Dra. Aitana Pla" (a field's key) had become "Silva:"
        if (kind == "date" and span.score is not None and self.calendar and self._no_date(value)
                and not (value.strip().isdigit() and _glued(text, span))):
            return True  # "Hexavalente" of "06/05/2025  Hexavalente" had become "Fnmawyykptj"
        if (kind == "date" and span.score is not None and value.isdigit() and len(value) <= 3
                and (unit := _UNIT_AFTER.match(text, span.end)) is not None
                and fold(unit["unit"]) in self.age_units):
            return True  # "05/02/2025 - 11 meses" with "11" as a day had become "95 meses"
        if doubted and kind in _NAMED and fold(value) in self.eponyms and (
                _SCORE_AFTER.match(text, span.end)
                or _SCALE_BEFORE.search(text, max(0, span.start - 24), span.start)):
            return True  # "Pfeiffer 7 errores" (a test) with "Pfeiffer" as a town
        if (kind in ("town", "country") and span.score is not None and _SINGLE_WORD.fullmatch(value)
                and value[:1].isupper() and value[1:].islower()
                and not any(fold(value) in known for known in (self.places, self.countries, self.all_given,
                                                               self.kinship))
                and self._common(value.lower())
                and _OPENS.search(text, max(0, span.start - 3), span.start)):
            return True  # "Vive sola." (a vCard's note) as a town: a word opening a sentence
        if kind == "date" and _ISO_TIME_PART.fullmatch(value) and text[span.start - 1 : span.start].isdigit():
            return True  # "T10" of "REV:2026-11-29T10:12:00Z", the time of an ISO stamp, had become "Z88"
        if (kind in ("town", "country") and span.score is not None and len(value) == 1 and value.isalpha()
                and _SLASH_NUMBER.match(text, span.end)):
            return True  # "Karima El Ouali, M / 39" (sex and age) with "M" as a town
        if (kind == "town" and doubted and value.isdigit() and len(value) <= 3
                and not {text[span.start - 1 : span.start], text[span.end : span.end + 1]} & _CODE_MARKS):
            return True  # "GLUC. 112" (a glucose) as a town: no place is three digits or fewer
        if (doubted and kind in _NAMED and _SHORT_WORD.fullmatch(value)
                and _NUMBER_AFTER_STOP.match(text, span.end)):
            return True  # "Pág. 1/2" of a printout's header as a hospital had become "Medina del Campo. 1/2"
        if any(a <= span.start and span.end <= b for a, b in _law_numbers(text)):
            return True  # "conforme al sistema de la Ley 35/2015": a law, no one's number ("Ley 28/2757")
        if kind in ("phone", "fax"):
            if span.score is None and not any(c.isdigit() for c in value) and len(value.split()) >= 9:
                return False  # a rule's number dictated in words ("seis cuatro nueve dos …")
            if span.score is not None and value.lstrip()[:1] in "12345" and _NUMBERS_ONLY.fullmatch(
                    _line_at(text, span.start)):
                return True  # a table's row of values ("16/09  102  128  131  138", glucose by day)
            run = next((m for m in _PHONE_RUN.finditer(text, max(0, span.start - 40), span.end + 40)
                        if m.start() <= span.start < m.end() or span.start <= m.start() < span.end), None)
            digits = sum(c.isdigit() for c in (run.group() if run is not None else value))
            return digits < _PHONE_DIGITS and not _EXTENSION_BEFORE.search(
                text, max(0, span.start - 16), span.start)  # "me llamáis a la ext. 76321"
        if kind in ("email", "url") and span.score is not None and span.score < _DOUBT \
                and not any(c in value for c in "@./") and fold(value) in self.sex_words:
            return True  # "Sexe: Home" as an e-mail address (other words: _refit)
        if (kind == "email" and span.score is not None and span.score < _DOUBT / 5
                and not any(c in value for c in "@./") and "arroba" not in value.lower()
                and "@" not in text[max(0, span.start - 3) : span.end + 3]):
            return True  # "river" of "the Noguera Pallaresa river" (at 0.03) had become "ismael"
        if (kind == "email" and span.score is not None and not any(c in value for c in "@./")
                and "arroba" not in value.lower() and _SINGLE_WORD.fullmatch(value)
                and _heading(text, span.start)):
            return True  # "PROVES COMPLEMENTÀRIES" (a heading) with its word as an address
        if (kind in ("organisation", "hospital", "health_centre") and span.score is not None
                and span.score < _DOUBT / 5
                and self._common_words_only(value, single=kind == "organisation" and _in_prose(text, span))):
            return True  # "Consulta de Consejo Genético en Cáncer Hereditario" ("… en Grupo Ayala");
            # "Trabaja de auxiliar…" ("Laboratorios Márquez de…"), "HOSPITAL DE LLERENA - GESTIÓN
            # DE CAMAS" (a second hospital's name)
        short = _SINGLE_WORD.fullmatch(value) or (kind == "organisation" and len(_WORDS.findall(value)) <= 3)
        if doubted and short and _DEPARTMENT_BEFORE.search(text, max(0, span.start - 24), span.start):
            return True  # "Servizo de Cardioloxía" with "Cardioloxía" as an e-mail address; "Servei
            # d'Oncologia Mèdica" with "Oncologia Mèdica" as a company ("d'Laboratorios Rivas")
        if kind in ("organisation", "hospital", "health_centre") and _DEPARTMENT.match(value):
            return True  # "Servei de Nefrologia" (a hospital's department) had become "Grupo López"
        if value[:1].isdigit() and _HGVS.search(text, max(0, span.start - 12), span.start):
            return True
        if (kind in ("town", "country", "region") and fold(value) in _LANGUAGE_NAMES
                and _HEADING.fullmatch(_line_at(text, span.start))):
            return True  # "[CATALÀ]" heading a bilingual note's Catalan part had become "[TÁRREGA]"
        tail = _ACRONYM_TAIL.match(text, span.end)  # "CIP" of "CIP-SNS:"
        key_end = tail.end() if tail is not None and value.isupper() else span.end
        if (kind in _NAMED and value.isupper() and len(value) > 2
                and (_SINGLE_WORD.fullmatch(value) or _ACRONYM_KEY.fullmatch(value))
                and _KEY_COLON.match(text, key_end) and fold(value) not in self.surnames
                and fold(value) not in self.all_given and fold(value) not in self.places):
            return True  # "NUHSA:", "CIP-SNS:" (which had become "HZD-JCJ:")
        if (kind in ("town", "country") and doubted and value in self.clinical
                and self._mixed_case_line(text, span)):
            return True  # "NAMC" (no known drug allergies) as a town, "OIA" (a foetus's position)
        if kind in ("organisation", "hospital", "health_centre") and doubted and value in self.clinical:
            return True  # "[X] SAOS (CPAP)" (sleep apnoea) as a body had become "CNIO (CPAP)"; no
            # medical acronym is a body in MEDDOCAN train+dev's gold
        if (_BILINGUAL_KEY_AFTER.match(text, span.end)
                and _KEY_START_BEFORE.search(text, max(0, span.start - 4), span.start)):
            return True  # "Adina / Edad: 66 urte": the field's name in Basque as a patient's name
        if kind == "town" and self._sentence_as_place(value):
            return True  # "Habla wolof, francés y español" with "Habla wolof" as a town
        if kind == "street" and value.split(" ", 1)[0] in self.clinical and _SCORE_AFTER.match(
                text, span.start + len(value.split(" ", 1)[0])):
            return True  # "NIHSS 16" (a stroke scale's score) as a street had become "SAN JUAN 17"
        if kind == "street" and (_BLOOD_GAS.search(value) or con_acronyms(value, self.clinical)):
            # a telegraphic note's "c/" is "con" ("DM2 c/ ADO", "SatO2 84% c/ GN 2l -> 90% c/ VMK
            # 28%"), and a blood gas is no house number ("pCO2 61 pO2 58 HCO3 30"): as streets they
            # had become "c/ LEONCIO SERRANO" and "pCO9 13 pO3 87" (the sixteenth set written blind)
            return True
        if kind in ("organisation", "hospital", "health_centre") and doubted and (
                fold(value) in self._facility_type_words or fold(value) in self._facility_type_heads
                or fold(value) in self.organisation_kinds):
            return True  # "Centro de Valladolid: C/ …" with "Centro" as an organisation
        if kind in ("street", *_PEOPLE) and span.score is not None and _NUMBER_KEY.fullmatch(value):
            return True  # "psiquiatra, Nº Col 48 48 11307" with "Nº Col" as a street (at 0.58)
        if (kind == "street" and span.score is not None and not _WORDS.findall(value)
                and _NUMBER_LIST.fullmatch(value) and not _glued(text, span)
                and not _AFTER_A_NAME.search(text, max(0, span.start - 4), span.start)
                and not _NAME_AFTER.match(text, span.end)):
            return True  # numbers after no street's name: a list's or a table's ("Camas libres: 202,
            # 205, 206" as a street had become "Camas libres: 202, 551, 467")
        if kind == "street" and span.score is not None and span.score < _DOUBT:
            words = _WORDS.findall(value)
            if not words:  # a number: not the house number after a street, a decimal's part
                return bool(_DECIMAL_AFTER.match(text, span.end) or _DECIMAL_BEFORE.search(
                    text, max(0, span.start - 2), span.start))
            if any(c.isdigit() for c in value) and all(len(w) <= 2 for w in words):
                return True  # "AV OD 1 / OI 0,9" (visual acuity) as "Avenida OD 1"
            # abbreviations alone ("Nº col" of a collegiate number; "col" is also "colonia"):
            # no name of a street, whatever its type; a code's prefix ("AT" of "AT-48-552903")
            # is the identifier's, which _whole_token makes whole
            return (not any(c.isdigit() for c in value) and not any(len(w) > 3 for w in words)
                    and text[span.end : span.end + 1] not in _JOINERS
                    and not _ENDS_WITH_PARTICLE.search(value))  # "Pza. de" + "España 4": joined later
        return False

    def _no_date(self, value: str) -> bool:
        """A tagger's date with no date in it: neither a digit nor a month or weekday ("Gripe",
        "Edad", "al"), or a word no date holds before a number too short for a year ("Gripe 2"
        of a vaccination calendar, the "2" its dose; "busca 4317", a pager, no year)."""
        words = [fold(w) for w in _LETTERS.findall(value)]  # "d'octubre": "d", "octubre"
        if any(w in self.calendar for w in words):
            return False
        numbers = regex.findall(r"\d+", value)
        if not numbers:
            return True
        if not words and value.strip().isdigit():
            # a bare number no date can be alone: three digits, or two over 31 ("201" of a ward
            # list's beds had become "896"; "Camas libres: 202, 205…" a street's numbers)
            bare = value.strip()
            return len(bare) == 3 or (len(bare) <= 2 and int(bare) > 31)
        other = [w for w in words if w not in self.function_words and w not in self.age_units
                 and w not in self.closed and len(w) > 2]
        if not other or len(numbers) != 1:
            return False
        # "busca 4317" (the pager) had become "wvoje 1483": four digits no year's
        number = numbers[0]
        return len(number) <= 2 or (len(number) <= 4 and not 1800 <= int(number) <= 2100)

    def _common_words_only(self, value: str, single: bool = False) -> bool:
        """Two words or more (``single``: or one), each capitalised and a word of the language
        that no table holds as a given name or a place, none a facility's kind: a heading's words
        ("Cáncer Hereditario"; Cáncer is a surname too), a sentence's first verb ("Trabaja"), not
        a name ("Cruz Roja": Cruz is a given name)."""
        words = _WORDS.findall(value)
        content = [w for w in words if fold(w) not in self.function_words]
        return len(content) >= (1 if single else 2) and all(
            w[:1].isupper() and self._known(w) and fold(w) not in self.all_given
            and fold(w) not in self.places
            and fold(w) not in self._facility_type_heads and fold(w) not in self._facility_type_words
            for w in content)

    @staticmethod
    def _mixed_case_line(text: str, span: Span) -> bool:
        """Does the span's line hold lower-case letters (so capitals there mean an acronym)?"""
        start = text.rfind("\n", 0, span.start) + 1
        end = text.find("\n", span.end)
        line = text[start : end if end >= 0 else len(text)]
        return any(c.islower() for c in line)

    def _digits_as_code(self, text: str, span: Span) -> Span:
        """A town span of digits glued to letters before it, which no postal code is ("CIP-AUT
        MU0170342918" with "0170342918" as a town): the label of other identifiers, which
        ``_whole_token`` then widens to the whole code."""
        other = dict(self.category_labels).get("id_other")
        value = text[span.start : span.end]
        if other is not None and _LETTERS_DIGITS.fullmatch(value):
            return replace(span, label=other)  # "CIP: CRTS830419012" had become "CAMPO DE CRIPTANA"
        if other is None or not value.isdigit() or not text[span.start - 1 : span.start].isalpha():
            return span  # foreign postal codes have 4, 6 or 7 digits ("CP: 1426"), none a prefix
        return replace(span, label=other)

    def _nickname(self, text: str, span: Span, previous: Span | None) -> Span:
        """A street span the tagger doubted that is one given name in quotation marks or
        brackets right after a person's span: the person's nickname ("Francisca Meroño Sáez
        ("Paquita")", whose "Paquita" became the street "Doctor Vicente Lino Ferrandiz")."""
        if (previous is None or span.fragments or span.score is None or span.score >= _DOUBT
                or self._category.get(previous.label) not in _PEOPLE):
            return span
        value = text[span.start : span.end]
        if not _SINGLE_WORD.fullmatch(value) or fold(value) not in self.all_given:
            return span
        if not _NICKNAME_GAP.fullmatch(text, previous.end, span.start):
            return span
        return replace(span, label=previous.label)

    def _relative_after_kin(self, text: str, span: Span) -> Span:
        """A clinician's span right after a kinship word and a comma ("el padre, Jordi Casals
        Vidal, guarda forestal", "Su marido, Mohamed Azzouz (tel. …)") or after "su" and a
        kinship word ("su hija Maite, logopeda"): the relative's; as a clinician, the occupation
        after the name went unseen and leaked."""
        if not self.relative or span.fragments:
            return span
        for pattern in (_KIN_COMMA_BEFORE, _KIN_OWNED_BEFORE):  # "su hija Maite, logopeda" (the eighth set)
            kin = pattern.search(text, max(0, span.start - 24), span.start)
            if kin is not None and fold(kin["kin"]) in self.kinship:
                return replace(span, label=self.relative)
        return span

    def _birthplace_as_id(self, text: str, span: Span) -> Span:
        """An identifier span of capitalised words and no digit after "natural de", "vive en"
        and the like: the town it names ("natural de Járkov" as the patient's identifier was
        kept as a description, a leak)."""
        town = dict(self.category_labels).get("town")
        value = text[span.start : span.end]
        if (town is None or span.fragments or any(c.isdigit() for c in value)
                or not _CAPITALISED_WORDS.fullmatch(value)
                or not _ORIGIN_BEFORE.search(text, max(0, span.start - 40), span.start)):
            return span
        return replace(span, label=town)

    def _occupation(self, text: str, span: Span) -> Span:
        """An occupation without the word after it that says one no longer works ("albañil
        jubilado": the surrogate "cristalero" had dropped "jubilado"); an organisation span in
        lower case that is an occupation of the table, the occupation's ("guardia civil
        jubilado" had become "Guardia Civil de Cádiz"); a doubted town, country or patient's
        identifier that is an occupation of the table, the occupation's ("varón de 62 años,
        electricista jubilado," as an identifier was kept as a description: a leak)."""
        words = list(_WORDS.finditer(text, span.start, span.end))
        end = span.end
        while len(words) > 1 and fold(words[-1].group()) in self.retired:
            words.pop()
            end = words[-1].end()
        former = (len(words) > 1 and fold(words[0].group()) in _FORMER
                  and fold(text[words[1].start() : end]) in self.professions)
        if former:  # "antigua costurera" as a town (then a relative): the occupation, sure
            span = replace(span, start=words[1].start())
        value = text[span.start : end]
        label = span.label
        kind = self._category.get(span.label)
        if kind == "organisation":
            profession = dict(self.category_labels).get("profession")
            if profession is None or value != value.lower() or fold(value) not in self.professions:
                return span
            label = profession
        elif kind in ("town", "country", "id_patient"):  # "AGRICULTOR JUBILADO" as a town
            profession = dict(self.category_labels).get("profession")
            key = fold(value)
            if (profession is None or (not former and (span.score is None or span.score >= _DOUBT))
                    or key not in self.professions or key in self.places or key in self.countries):
                return span
            label = profession
        elif kind == "person_relative":
            # an occupation in lower case with no kinship word, as a relative ("viuda, maestra
            # rural jubilada" in the seventh set written blind: kept whole as a relative's words)
            profession = dict(self.category_labels).get("profession")
            words = _WORDS.findall(value)
            if (profession is None or not words or value != value.lower()
                    or any(fold(w) in self.kinship for w in words)
                    or not any(fold(" ".join(words[:k])) in self.professions
                               for k in range(1, len(words) + 1))):
                return span
            label = profession
        elif kind == "profession" and end == span.end:
            # the table's longer form the tagger cut ("maestra de educación" of "… infantil":
            # "encuestadora infantil"), or cut at its start ("de casa" of "ama de casa": "ama
            # fotoperiodista", the twelfth set written blind)
            more = _NEXT_WORDS.match(text, end)
            if more is not None:
                ends = [m.end() for m in _WORDS.finditer(text, end, more.end())]
                end = next((e for e in reversed(ends) if fold(text[span.start : e]) in self.professions), end)
            before = _WORDS_BEFORE.search(text, max(0, span.start - 30), span.start)
            if before is not None and fold(text[span.start : end]) not in self.professions:
                starts = [m.start() for m in _WORDS.finditer(text, before.start(), span.start)]
                start = next((a for a in starts if fold(text[a:end]) in self.professions), span.start)
                if start != span.start:
                    return replace(span, start=start, end=end, label=label)
        return span if (end, label) == (span.end, span.label) else replace(span, end=end, label=label)

    def _named_relative(self, text: str, span: Span, previous: Span | None) -> Span:
        """Capitalised names right after a relative's kinship word and a comma, under an
        organisation's or a place's label ("el marido, Petro Kovalenko, camionero", whose name
        the tagger took for an organisation): the relative's. Not a name of the place tables,
        nor a kind of facility or organisation."""
        if (self.relative is None or previous is None or previous.label != self.relative or span.fragments
                or not _KIN_GAP.fullmatch(text, previous.end, span.start)):
            return span
        words = _WORDS.findall(text, previous.start, previous.end)
        if not words or fold(words[-1]) not in self.kinship:
            return span
        value = text[span.start : span.end]
        names = [w for w in _WORDS.findall(value) if fold(w) not in self.function_words]
        kinds = self._facility_type_heads | self._facility_type_words
        # a common given name is the relative's whatever place shares it ("su hijo, Marc," as a
        # town: "Saint-Marc" is one; it had become "su hijo, Castelló d'Empúries,")
        place = fold(value) in self.places and not (len(names) == 1 and fold(value) in self.given)
        if (not names or not all(w[:1].isupper() for w in names) or place
                or any(fold(w) in kinds for w in names)):
            return span
        return replace(span, label=self.relative)

    def _age_as_code(self, text: str, span: Span) -> Span:
        """An age span that is a code, not an age: digits only, four or more or with a leading
        zero ("Nº empleado: 004517" as an age had become "90 o más", the generalisation of old
        ages): the label of other identifiers."""
        other = dict(self.category_labels).get("id_other")
        value = text[span.start : span.end]
        if other is None or not value.isdigit() or not (
                len(value) >= 4 or (len(value) > 1 and value[0] == "0")):
            return span
        return replace(span, label=other)

    def _acronym_as_organisation(self, text: str, span: Span) -> Span:
        """A place span the tagger doubted that is capitals no table of places, names or
        clinical acronyms holds, in a line in lower case: an organisation's acronym ("Enfermera -
        Unidad de Salud del Estudiante, UPNA", whose "UPNA" had become "Corea del Sur")."""
        organisation = dict(self.category_labels).get("organisation")
        value = text[span.start : span.end]
        key = fold(value)
        if (organisation is None or span.fragments or span.score is None or span.score >= _DOUBT
                or not value.isupper() or not 2 < len(value) <= 6 or not value.isalpha()
                or key in self.places or key in self.countries or key in self.all_given
                or key in self.surnames or value in self.clinical or not self._mixed_case_line(text, span)):
            return span
        return replace(span, label=organisation)

    def _lower_case_lead(self, text: str, span: Span) -> Span:
        """An organisation's or facility's span that opens with lower-case words of the language
        before its capitalised name ("contacto del Consulado de Alemania en Palma", whose
        surrogate had swallowed "contacto del"): the span from the first capitalised word. A
        name in lower case throughout (a note typed so) is left whole."""
        if span.fragments:
            return span
        words = list(_WORDS.finditer(text, span.start, span.end))
        first = next((i for i, w in enumerate(words) if w.group()[:1].isupper()), None)
        if not first or not all(
                (fold(w.group()) in self.function_words or self._known(w.group()))
                and fold(w.group()) not in self._facility_type_heads
                and fold(w.group()) not in self._facility_type_words for w in words[:first]):
            return span  # "hospital Saint John of God": the kind is the name's
        return replace(span, start=words[first].start())

    def _named_after(self, text: str, span: Span) -> Span | None:
        """An occupation's span that ends with a given name after the occupation's words in lower
        case ("auxiliar Loli", "enfermera Paqui"): the name alone, a clinician's; else None."""
        words = list(_WORDS.finditer(text, span.start, span.end))
        clinician = dict(self.category_labels).get("person_clinician")
        if len(words) < 2 or clinician is None:
            return None
        last = words[-1].group()
        if not (last[:1].isupper() and last[1:].islower()) or fold(last) not in self.all_given:
            return None
        if not all(w.group().islower() for w in words[:-1]):
            return None
        return replace(span, start=words[-1].start(), end=words[-1].end(), label=clinician)

    def _doubted_common(self, text: str, span: Span, kind: str | None) -> bool:
        """One word the tagger doubted that its label's text is not: under a place's or an
        organisation's label, a lower-case word in a line with capitals that the language knows
        ("miope magno", "antigua costurera": Magno and Antigua are in the tables) or that no
        table of places holds (the Catalan "telèfon", "correu" before a number and an address);
        an occupation's, a lower-case word no occupation is ("bicicleta de montaña"); a
        relative's, a capitalised word of the language that is no kin and no name ("Lactancia"
        at a line's start). In MEDDOCAN train+dev none of these is a gold span: its lower-case
        one-word places, streets and organisations are none, and its one-word relatives outside
        the kinship and name tables are lower-case ("materno", "neonato")."""
        if span.fragments or span.score is None or span.score >= _DOUBT or kind is None:
            return False
        value = text[span.start : span.end]
        if not _SINGLE_WORD.fullmatch(value):
            return False
        key, lower = fold(value), value == value.lower()
        if not lower and len(value) > 3 and (kind in _PROPER or kind == "person_relative") and regex.search(
                rf"(?<![\p{{L}}\p{{N}}./@_-]){regex.escape(value.lower())}(?![\p{{L}}\p{{N}}@_-]|\.[\p{{L}}\p{{N}}])",
                text):
            return True  # "MOTIU D'INGRÉS", "Ingrés previ" as an organisation beside "Data d'ingrés"
            # (a word of an address is not one: "Lumeris" beside "www.lumeris.de")
        if kind in _NAMED_PEOPLE and value.isupper() and self._known(value) and _heading(text, span.start):
            return True  # "REVISIONES DEL NIÑO SANO" with "SANO" as a clinician (Sano is a surname)
        if kind == "profession":
            return lower and bool(self.professions) and key not in self.professions and self._known(value) \
                and _line_has_capitals(text, span.start)
        if kind == "person_relative":
            return not lower and key not in self.kinship and key not in self.all_given \
                and key not in self.surnames and self._known(value)
        if kind in ("town", "country", "street", "hospital", "health_centre", "organisation"):
            return lower and _line_has_capitals(text, span.start) and (
                self._known(value) or (bool(self.places) and key not in self.places))
        return False

    def _after_title(self, text: str, span: Span) -> Span:
        """A place or an organisation the tagger doubted right after a person's title is that
        person's name: "El Dr. Huerta de Soto" (Gonzalo Huerta de Soto, found in full
        elsewhere) with "Huerta" as a town had become "El Dr. Vitigudino López"."""
        if span.fragments or span.score is None or span.score >= _DOUBT or not self.titles:
            return span
        if not text[span.start : span.start + 1].isupper():
            return span
        title = _TITLE_BEFORE.search(text, max(0, span.start - 12), span.start)
        if title is None:
            return span
        role = self._titles.get(fold(title["title"]) + ".") if title["dot"] else None
        role = role or self._titles.get(fold(title["title"]))
        label = self.clinician if role == "clinician" else self.patient if role else None
        return replace(span, label=label) if label else span

    def _surname_after_name(self, text: str, span: Span, previous: Span) -> bool:
        """Is ``span`` (a place, a street or an organisation the tagger doubted, one capitalised
        word) the surname of the person's name right before it, one space apart ("su madre, Begoña
        Goikoetxea" with "Goikoetxea" as a company)?"""
        if span.fragments or previous.fragments or span.score is None or span.score >= _DOUBT:
            return False
        if self._category.get(previous.label) not in _PEOPLE or text[previous.end : span.start] != " ":
            return False
        value = text[span.start : span.end]
        if not (_SINGLE_WORD.fullmatch(value) and value[:1].isupper() and not value.isupper()):
            return False
        # a name in brackets is whole: its last word is the surname, a place of that name or not
        # ("yerno (Roberto Lamas)" with "Lamas" as a street; a retrained model had left it)
        bracketed = (text[previous.start - 1 : previous.start] == "(" and text[span.end : span.end + 1] == ")"
                     and fold(value) in self.surnames)
        return bracketed or (fold(value) not in self.places and fold(value) not in self.countries)

    def _surname_before_given(self, text: str, span: Span, previous: Span, following: Span | None) -> bool:
        """Is ``span`` (a place, a street or an organisation) the last surname of "SURNAMES,
        GIVEN": a person's span one space before it, a surname of the tables, then a comma and
        the given names as a person's span ("LÓPEZ DE HARO SEGURA, JUAN ANTONIO" with "SEGURA"
        as a town: the person had two surrogates in one note)?"""
        if span.fragments or previous.fragments or following is None or following.fragments:
            return False
        if text[previous.end:span.start] != " " or self._category.get(following.label) not in _PEOPLE:
            return False
        value = text[span.start:span.end]
        return (_SINGLE_WORD.fullmatch(value) is not None and fold(value) in self.surnames
                and regex.fullmatch(r",[ \t]*", text[span.end:following.start]) is not None)

    def _joined(self, text: str, spans: list[Span]) -> list[Span]:
        """Spans the tagger cut inside one name: two places parted by "y" that the tables hold
        as one ("Castilla" + "León" of "Castilla y León", the second as a hospital: "Cogollos y
        Complejo Asistencial Universitario de Burgos"), and two spans of one facility's label
        parted by a space ("Hospital Universitario La Paz-Carlos" + "III"); a street and its floor
        after a comma ("Rúa da Feira 12" + "3º esq", whose surrogate was "calle"); a facility and the
        Roman numeral of its name ("Centro Penitenciario de Sevilla" + "I", which had become
        "institución"); the letters and the digits of one code, glued, one of them an identifier
        ("ETAG" as a town + "751214" of "TIS: ETAG751214", which became "PORTUGALETE329413"): the
        code whole, under the identifier's label."""
        out: list[Span] = []
        for span in spans:
            last = out[-1] if out else None
            if last is None or last.fragments or span.fragments:
                out.append(span)
                continue
            gap = text[last.end : span.start]
            kinds = (self._category.get(last.label), self._category.get(span.label))
            if not gap and (glued := self._glued_code(text, last, span, kinds)) is not None:
                out[-1] = glued  # "ETAG" + "751214"
                continue
            if (gap in (", ", ",") and kinds == ("street", "street")
                    and _FLOOR_START.match(text, span.start)):
                out[-1] = replace(last, end=span.end)  # "Rúa da Feira 12" + "3º esq"
                continue
            if (gap == " " and kinds[0] in ("hospital", "health_centre", "organisation")
                    and _ROMAN_NUMERAL.fullmatch(text, span.start, span.end)):
                out[-1] = replace(last, end=span.end)  # "Centro Penitenciario de Sevilla" + "I"
                continue
            if gap == " " and last.label == span.label and kinds[0] in ("hospital", "health_centre"):
                opening = fold((_WORDS.findall(text, span.start, span.end) or [""])[0])
                if (opening not in self._facility_type_heads and opening not in self._facility_type_words) \
                        or fold(text[last.start : last.end]) in self._facility_type_words:
                    # not two facilities side by side ("Hospital Universitario Puerto Real
                    # Complejo Hospitalario de la Bahía"), but "Complejo Hospitalario" + its name
                    out[-1] = replace(last, end=span.end)
                    continue
            if (gap in (" y ", " i ") and kinds[0] in ("town", "region", "country")
                    and kinds[1] in _NOT_PEOPLE and fold(text[last.start : span.end]) in self.places):
                out[-1] = replace(last, end=span.end)
                continue
            if gap in (", ", ",", "-") and (kinds[0] in _PEOPLE) != (kinds[1] in _PEOPLE):
                # a piece of a name under a place's or a street's label, beside the person's
                # ("Popescu" as a street + ", " + "Ioana" + "-" + "Maria" as a town: the twelfth
                # set written blind had "Cristo de la Luz, Beatriz-Garrucha"): the person's
                person_first = kinds[0] in _PEOPLE
                person, other = (last, span) if person_first else (span, last)
                key = fold(text[other.start : other.end])
                # a surname first in a patient's field, whatever the tables and the tagger say
                # ("Paciente: BERIDZE, GIORGI" with "BERIDZE" as a town had become "LA LUISIANA,
                # SERGIO")
                field = other is last and self._in_name_field(text, other)
                named = key in self.all_given or key in self.surnames or field
                if (other.score is not None and (other.score < _DOUBT or field)
                        and _NAME_WORDS_ONLY.fullmatch(text, other.start, other.end) and named
                        and (key not in self.places or field)
                        and self._category.get(other.label) in _PLACE_OR_BODY):
                    if gap == "-":
                        out[-1] = replace(last, end=span.end, label=person.label)
                        continue
                    if person_first:
                        span = replace(span, label=person.label)
                    else:
                        out[-1] = replace(last, label=person.label)
            if (gap == " " and kinds[0] in _PEOPLE and kinds[1] in _PEOPLE
                    and (devotion := _DEVOTION.fullmatch(text, span.start, span.end)) is not None
                    and fold(devotion["name"]) in self.all_given):
                # "MARÍA" + "DEL PILAR" as another person: one name ("TATIANA DEL ENCARNACIÓN"
                # had been drawn for the second: the twelfth set written blind)
                out[-1] = replace(last, end=span.end)
                continue
            if (gap == "/" and kinds[0] == kinds[1] and kinds[0] in ("town", "region")
                    and fold(text[last.start : last.end]) in self.places
                    and fold(text[span.start : span.end]) in self.places):
                # the two names of one bilingual place ("Peñíscola/Peníscola"), which had become
                # "Guardamar del Segura/Guardamar del Segura": one place, one surrogate
                out[-1] = replace(last, end=span.end)
                continue
            out.append(span)
        return out

    def _glued_code(self, text: str, last: Span, span: Span,
                    kinds: tuple[str | None, str | None]) -> Span | None:
        """Two spans touching inside one token of letters and digits, one of them an identifier:
        one span of the identifier's label (the first identifier's, when both are)."""
        if not (text[last.end - 1 : last.end].isalnum() and text[span.start : span.start + 1].isalnum()):
            return None
        ids = [s for s, kind in zip((last, span), kinds, strict=True) if kind in _IDENTIFIERS]
        if not ids:
            return None
        return replace(last, end=span.end, label=ids[0].label)

    def _town_as_organisation(self, text: str, span: Span) -> Span:
        """An organisation span that is a town of the pack's tables, whole ("Sant Feliu de
        Guíxols" after "vive con sus padres en", which became the company "Riera Farma"): the
        town's label. A name that is also a company's stays when the list of organisations
        holds it (the tables of places are folded, like this test)."""
        town = dict(self.category_labels).get("town")
        if town is None or span.fragments:
            return span
        value = text[span.start : span.end]
        if _DISTRICT_BEFORE.search(text, max(0, span.start - 24), span.start):
            return replace(span, label=town)  # "el barrio de Retuerto" as a company
        doubted = span.score is not None and span.score < _DOUBT
        if (" " not in value and (fold(value) in self.places or doubted)
                and _PREMISES_BEFORE.search(text, max(0, span.start - 60), span.start)):
            return replace(span, label=town)  # "una empresa de Alcañiz", "… de almendros de Agramón"
        if fold(value) not in self.places:
            return span
        if " " not in value and not _ORIGIN_BEFORE.search(text, max(0, span.start - 24), span.start):
            return span  # one word: "Mapfre" is also a place's name; not after "natural de Haro"
        return replace(span, label=town)

    def _elided_joined(self, text: str, spans: list[Span]) -> list[Span]:
        """Two spans of one label parted by an apostrophe only are one name: the tagger cut
        "INSTITUT D'ASSISTÈNCIA SANITÀRIA" at the elision, and its halves became "Grupo
        Roldán'Laboratorios Robles"."""
        out: list[Span] = []
        for span in spans:
            last = out[-1] if out else None
            if (last is not None and last.label == span.label and not last.fragments and not span.fragments
                    and text[last.end : span.start] in ("'", "’")):
                out[-1] = replace(last, end=span.end)
                continue
            out.append(span)
        return out

    def _streets_joined(self, text: str, spans: list[Span]) -> list[Span]:
        """A street the tagger broke in pieces, its name read as a country, a town or a person
        ("Pza. de" + "España" + "4" of "Pza. de España 4, 2º izda.", which became "Pza. Mayor
        España calle"; "Avinguda de" + "Fernando Abril Martorell" + "106", which became "Avinguda
        Historiador Beti Ángel Daniel Rivas, 327"): a street span ending with a particle ("de",
        "del", "de la") and the span right after it on the line are one street, with the house
        number after them."""
        street = dict(self.category_labels).get("street")
        if not street or len(spans) < 2:
            return spans
        out: list[Span] = []
        i = 0
        while i < len(spans):
            span = spans[i]
            nxt = spans[i + 1] if i + 1 < len(spans) else None
            if (nxt is not None and span.label == street and not span.fragments and not nxt.fragments
                    and _ENDS_WITH_PARTICLE.search(text, span.start, span.end)
                    and _SPACE_ONLY.fullmatch(text, span.end, nxt.start)
                    and self._category.get(nxt.label) in _STREET_NAME_PIECES):
                end = nxt.end
                later = i + 2
                if later < len(spans) and spans[later].label == street and _SPACE_ONLY.fullmatch(
                        text, end, spans[later].start) and not spans[later].fragments:
                    end, later = spans[later].end, later + 1  # "… España" + "4"
                else:
                    number = _HOUSE_NUMBER.match(text, end)
                    if number is not None and (later >= len(spans) or number.end() <= spans[later].start):
                        end = number.end()
                out.append(replace(span, end=end))
                i = later
                continue
            if (nxt is not None and span.label == street and nxt.label == street and not span.fragments
                    and not nxt.fragments and _ROAD_PREFIX_END.search(text, span.start, span.end)
                    and text[span.end : nxt.start] == "-"):
                # a road's code cut at its hyphen ("Ctra. N" + "122" of "Ctra. N-122, km 79,300",
                # which became "Ctra. Villar del Arzobispo-394": the twelfth set written blind)
                out.append(replace(span, end=nxt.end))
                i += 2
                continue
            out.append(span)
            i += 1
        return out

    # -- times ------------------------------------------------------------------------------
    @staticmethod
    def _without_time(text: str, span: Span) -> Span | None:
        """The span without the time of day it holds or is (None: nothing else is left)."""
        if span.fragments:
            return span
        value = text[span.start : span.end]
        if _TIME.fullmatch(value):
            return None
        trailing = _TRAILING_TIME.search(value)
        if trailing is not None and any(c.isdigit() for c in value[: trailing.start()]):
            hour_only = ":" not in trailing.group()
            if not hour_only or _MINUTES.match(text, span.end):
                return _shrunk(span, span.start, span.start + trailing.start())
        return span

    def _patient_field(self, text: str, span: Span) -> bool:
        """Is the span in a header field of the patient's name ("Paciente:", "Nombre:"), after
        the key or after another part of the name and a comma, and made of name words only
        (given names, surnames, particles)?"""
        if not self.fields or span.fragments:
            return False
        line = text[text.rfind("\n", 0, span.start) + 1 : span.start]
        found = _FIELD.fullmatch(line)
        if found is None or " ".join(fold(w) for w in found["key"].split()) not in self.fields:
            return False
        words = [part for w in self._content_words(text[span.start : span.end]) for part in w.split("-")]
        return bool(words) and all(w in self.all_given or w in self.surnames or len(w) == 1 for w in words)

    def _in_name_field(self, text: str, span: Span) -> bool:
        """Is the span the first thing of a header field of the patient's name ("Paciente:")?"""
        line = text[text.rfind("\n", 0, span.start) + 1 : span.start]
        found = _FIELD_KEY_ONLY.fullmatch(line)
        return found is not None and " ".join(fold(w) for w in found["key"].split()) in self.fields

    def _kin_field(self, text: str, span: Span) -> bool:
        """Is the span the value of a field whose key is a kinship word ("Madre: Leire Montero
        Arribas, farmacéutica, tel. …", tagged as a clinician: her occupation went unseen)?"""
        if not self.kinship or span.fragments:
            return False
        line = text[text.rfind("\n", 0, span.start) + 1 : span.start]
        found = _FIELD.fullmatch(line)
        return (found is not None and found.group().rstrip().endswith(":")
                and fold(found["key"]) in self.kinship)

    def _title_only(self, text: str, span: Span) -> bool:
        """Is the span a title and nothing else ("D" of "Sr. D. José", "Enf"), maybe after an
        article ("La Sra")?"""
        value = fold(text[span.start : span.end].strip())
        first, _, rest = value.partition(" ")
        if rest and first in self.function_words:
            value = rest.strip()
        titles = self._titles
        return value in titles or (text[span.end : span.end + 1] == "." and value + "." in titles)

    def _title_lead(self, text: str, span: Span) -> Span:
        """A person's span opening with a title and a space ("Doña Pilar Menéndez Álvarez",
        "Mrs. Margaret Whitaker"): the name starts after it, as MEDDOCAN writes names. In the
        span, "Doña" had been drawn a given name's surrogate, and the title was lost."""
        if span.fragments:
            return span
        m = _LEADING_WORD.match(text, span.start, span.end)
        if m is None or m.end() >= span.end:
            return span
        word = fold(m["word"])
        if not (word in self._titles or (m["dot"] and word + "." in self._titles)):
            return span
        return replace(span, start=m.end())

    def _after_name(self, text: str, span: Span) -> Span:
        """A person's span without the lower-case words of the language after its last name
        word ("hijo Álvaro informados": the verb). MEDDOCAN's gold names end with a name word,
        or with the lower-case words of a kinship phrase after a kinship word ("Tío materno")."""
        if span.fragments:
            return span
        words = list(_WORDS.finditer(text, span.start, span.end))
        last = max((i for i, m in enumerate(words) if m.group()[:1].isupper()), default=None)
        if last is None or last == len(words) - 1 or fold(words[last].group()) in self.kinship:
            return span
        trailing = [m.group() for m in words[last + 1 :]]
        if not all(w == w.lower() and self._known(w) and fold(w) not in self.kinship for w in trailing):
            return span
        if any(c.isdigit() for c in text[words[last].end() : span.end]):
            return span
        return replace(span, end=words[last].end())

    def _verb_inside(self, text: str, span: Span) -> Span:
        """A person's span cut before a lower-case word of the language inside it, neither a
        particle ("i", "da", "van": four letters or more) nor a kinship word, after a capitalised
        one that is no kinship word ("su hija Alba estudia Veterinaria",
        the eighth set written blind: the subject Veterinaria became a surname)."""
        if span.fragments:
            return span
        words = list(_WORDS.finditer(text, span.start, span.end))
        for i in range(1, len(words) - 1):
            word = words[i].group()
            if (word == word.lower() and len(word) > 3 and words[i - 1].group()[:1].isupper()
                    and fold(words[i - 1].group()) not in self.kinship  # "Tío materno"
                    and fold(word) not in self.closed and fold(word) not in self.kinship
                    and fold(word) not in self.stop and self._known(word)):
                return replace(span, end=words[i - 1].end())
        return span

    def _name_runs_on(self, text: str, span: Span, limit: int) -> Span:
        """A name cut before its last word ("Luz" of "su madre, Luz Mery, llegada…"; "Mery" was
        left in clear): a span ending with a name word of the tables runs on over one more
        capitalised word of the given-name or surname tables after one space, where the phrase
        then ends (punctuation or the line's end) — not a place, a title, a kinship word."""
        if span.fragments:
            return span
        initial = _INITIAL_THEN_NAME.match(text, span.end) if span.end - span.start == 1 else None
        if (initial is not None and text[span.start].isupper() and initial.end() <= limit
                and (fold(initial["first"]) in self.surnames or fold(initial["first"]) in self.all_given)):
            # an initial the tagger took alone before the surnames ("Dr. J." of "Dr. J. Expósito
            # Ruano", whose "Ruano" was left in clear: the twelfth set written blind)
            return replace(span, end=initial.end())
        words = _WORDS.findall(text, span.start, span.end)
        # a name of two words or more in capitals runs on whatever its last word ("DR. XOSÉ
        # MANUEL LOUZAO FREIRE   N.º COL.": "LOUZAO", no surname of the tables, left "FREIRE")
        if not words or (fold(words[-1]) not in self.all_given and fold(words[-1]) not in self.surnames
                         and not (len(words) > 1 and text[span.start : span.end].isupper())):
            return span
        nxt = _RUNS_ON.match(text, span.end)
        if nxt is None or nxt.end("word") > limit or nxt["word"].isupper() != words[-1].isupper():
            return span  # "MARGARET ANNE" in capitals, "Luz Mery" in title case
        key = fold(nxt["word"])
        # a surname a place shares ends a long name in capitals ("… LOUZAO FREIRE": Freire is
        # a place too); after a shorter one it may be the town ("JUAN GARCÍA, MADRID")
        place = key in self.places and not (len(words) > 2 and key in self.surnames and nxt["word"].isupper())
        if place and key in self.surnames and text[span.start - 1 : span.start] == "(" \
                and text[nxt.end("word") : nxt.end("word") + 1] == ")":
            place = False  # a name in brackets, whole: "yerno (Roberto Lamas)", Lamas a place too
        if (key not in self.all_given and key not in self.surnames) or place \
                or key in self.countries or key in self._titles or key in self.kinship:
            return span
        return replace(span, end=nxt.end("word"))

    def _given_names_as_other(self, text: str, ordered: list[Span]) -> list[Span]:
        """A name in capitals written "SURNAMES, GIVEN" whose given names the tagger took for
        something else ("Trabajador: QUISHPE GUAMÁN, JHON BYRON" with "JHON BYRON" as a company,
        which became "LABORATORIOS MENÉNDEZ"): the given names join the person's span when each
        is a given name of the tables and the field ends after them."""
        out: list[Span] = []
        for span in ordered:
            last = out[-1] if out else None
            if (last is not None and not last.fragments and not span.fragments
                    and self._category.get(last.label) in _PEOPLE
                    and self._category.get(span.label) not in _PEOPLE
                    and text[last.start : last.end].isupper() and "," not in text[last.start : last.end]):
                after = _GIVEN_AFTER_COMMA.match(text, last.end)
                value = text[span.start : span.end]
                if (after is not None and (after.start("given"), after.end("given")) == (span.start, span.end)
                        and value.isupper()
                        and all(fold(w) in self.all_given for w in _WORDS.findall(value))):
                    out[-1] = replace(last, end=span.end)
                    continue
            out.append(span)
        return out

    def _given_after_comma(self, text: str, span: Span, limit: int) -> Span:
        """A name in capitals written "SURNAMES, GIVEN" in a header found without its given
        names ("Paciente: KOVALENKO, OKSANA   NHC…" as "KOVALENKO"; "OKSANA" was left): the span
        runs on over the comma and one to three words in capitals or initials that end where
        the field does (a column gap, the line's end, a parenthesis), each a given name of the
        tables or no word of the language, none a title or kinship word, nor a place that is no
        given name."""
        if span.fragments:
            return span
        value = text[span.start : span.end]
        if not value.isupper() or "," in value:
            return span
        after = _GIVEN_AFTER_COMMA.match(text, span.end)
        if after is None or after.end("given") > limit:
            return span
        for word in _WORDS.findall(after["given"]):
            key = fold(word)
            if key in self.countries or key in self._titles or key in self.kinship:
                return span
            if len(word) > 1 and key not in self.all_given and (key in self.places or self._known(word)):
                return span  # "MADRID"; "CANDELARIA" is a given name too
        return replace(span, end=after.end("given"))

    def _given_over_next(self, text: str, span: Span, following: Span, absorbed: int) -> tuple[Span, int]:
        """``_given_after_comma`` over the next span when that span is the given names after the
        comma (the span and how far it absorbs the spans after it)."""
        if following.fragments or not _COMMA.fullmatch(text, span.end, following.start):
            return span, absorbed
        joined = self._given_after_comma(text, span, following.end)
        return (joined, following.end) if joined.end == following.end else (span, absorbed)

    def _surname_before_comma(self, text: str, span: Span, floor: int) -> Span:
        """The mirror of ``_given_after_comma``: given names in capitals found without the
        surname before them and a comma, at the start of a field's value ("Paciente: WHITFIELD,
        MARGARET ANNE" as "MARGARET ANNE": the surname was left). The span starts at the
        surname: one to three words in capitals, none a country, title or kinship word."""
        value = text[span.start : span.end]
        if span.fragments or not value.isupper():
            return span
        line_start = text.rfind("\n", 0, span.start) + 1
        before = _SURNAME_COMMA_BEFORE.search(text, max(line_start, floor), span.start)
        if before is None:
            return span
        for word in _WORDS.findall(before["surname"]):
            key = fold(word)
            if key in self.countries or key in self._titles or key in self.kinship or key in self.places:
                return span
        return replace(span, start=before.start("surname"))

    def _kin_apposition(self, text: str, span: Span, limit: int) -> Span:
        """A relative's span of kinship words alone, followed by the relative's name after a
        comma ("Vive con su marido, Geoffrey, de movilidad reducida": "marido" found, "Geoffrey"
        left in clear): the span runs on over one to three capitalised words that are names of
        the tables or no word of the language, not a place, where the phrase ends. MEDDOCAN
        marks such a relative whole ("marido, Geoffrey"). A given name of the tables in brackets
        after the kinship word is taken whatever its case ("la hija (amparo)" in a handover
        typed in lower case; "amparo" is also a word), with its brackets."""
        if span.fragments:
            return span
        words = [fold(w) for w in _WORDS.findall(text, span.start, span.end)]
        if not words or not any(w in self.kinship for w in words) or not all(
                w in self.kinship or w in self.function_words for w in words):
            return span
        apposed = _APPOSED.match(text, span.end)
        if apposed is None:
            bracketed = _BRACKETED_NAME.match(text, span.end)  # "la hija (amparo)" in lower case
            names = bracketed["name"].split() if bracketed is not None else []
            if bracketed is None or bracketed.end("name") > limit or not all(
                    fold(n) in self.all_given and fold(n) not in self.kinship for n in names):
                return span
            return replace(span, end=bracketed.end() if bracketed.end() <= limit else bracketed.end("name"))
        if apposed.end("name") > limit:
            return span
        names = apposed["name"].split()
        if fold(apposed["name"]) in self.places or any(
                fold(n) in self.places or fold(n) in self.countries or fold(n) in self.kinship
                or fold(n) in self._titles
                or (fold(n) not in self.all_given and fold(n) not in self.surnames and self._known(n))
                for n in names):
            return span
        return replace(span, end=apposed.end("name"))

    def _hyphened(self, text: str, span: Span, limit: int) -> Span:
        """A name cut at the hyphen of a compound surname ("Francisco Javier Ruiz" of
        "Ruiz-Gallardo Peñalver"; the tokenizer splits at the hyphen and the tagger stopped
        there): the span runs on over the hyphen and the capitalised word after it, then over
        one more surname of the table ("Peñalver", "Montes"), the second surname a compound
        first surname is followed by. MEDDOCAN's gold holds such names whole ("Pérez-Fidalgo"). It
        stops before ``limit``, where the next span starts."""
        if span.fragments:
            return span
        joined = _HYPHENED.match(text, span.end)
        if joined is None or joined.end() > limit or not text[span.end - 1 : span.end].isalpha():
            return span
        end = joined.end()
        second = _NEXT_WORD.match(text, end)
        if (second is not None and second.end() <= limit and fold(second["word"]) in self.surnames
                and fold(second["word"]) not in self._titles and fold(second["word"]) not in self.kinship
                and not _NAME_GOES_ON.match(text, second.end())):  # "Pérez-Fidalgo Hospital de León"
            end = second.end()
        return replace(span, end=end)

    def _whole_token(self, text: str, span: Span, previous_end: int, next_start: int) -> Span:
        """A number cut out of a longer code ("00417" of "TR-2025/00417", "12873" of "Col.
        41/12873", "2024" of "Diligencias Previas 1287/2024"): the span takes the whole code —
        letters and digits joined by "-" or "/" (MEDDOCAN leaves a phone's "+" out). A place
        or a date that turns out part of a code is no postal code or year: it takes the
        scheme's label for other identifiers."""
        if span.fragments or any(c.isspace() for c in text[span.start : span.end]):
            return span  # "Abril 18" of "Calle Pintor Salvador Abril 18-2-1" is no code's part
        start, end = span.start, span.end
        kind = self._category.get(span.label)
        if kind not in ("town", "date"):
            # "557" of "NHC / HZ: 1.204.557" (a phone, "1.204." left in the output); "730215" of
            # "TIS: URBE730215" (the letters left)
            while (group := _GROUP_BEFORE.search(text, max(previous_end, start - 5), start)) is not None:
                start = group.start()
            if text[start : end].isdigit() and (caps := _CAPITALS_GLUED.search(
                    text, max(previous_end, start - 6), start)) is not None:
                start = caps.start()
            if kind in _IDENTIFIERS and _DIGIT_GROUP.fullmatch(text, start, end):
                # "1504" of "CIP: 1504 3327 8812" (the rest left): the groups of its length after it
                width = end - start
                while (group := _NEXT_GROUP.match(text, end, next_start)) is not None \
                        and len(group["g"]) == width:
                    end = group.end()
        while start - 2 >= previous_end and text[start - 1] in _JOINERS and text[start - 2].isalnum():
            part = start - 2
            while part - 1 >= previous_end and text[part - 1].isalnum():
                part -= 1
            if not _CODE_PART.fullmatch(text, part, start - 1):
                break
            start = part
        while end + 2 <= next_start and text[end] in _JOINERS and text[end + 1].isalnum():
            part = end + 2
            while part < next_start and text[part].isalnum():
                part += 1
            if not _CODE_PART.fullmatch(text, end + 1, part):
                break
            end = part
        if (start, end) == (span.start, span.end):
            return span
        if (start > previous_end and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
            return span  # a word runs on: not a code's edge
        label = span.label
        if kind in ("town", "date") and not (kind == "date" and _DATE_CODE.fullmatch(text, start, end)):
            label = dict(self.category_labels).get("id_other", label)
        return replace(span, start=start, end=end, label=label)

    @cached_property
    def _facility_head(self) -> regex.Pattern[str] | None:
        """A facility's type word, then an article or capitalised words, up to a span's start
        ("Policlínica La " before "Mancha")."""
        if not self.facility_types:
            return None
        types = _alternatives(self.facility_types)
        return regex.compile(
            rf"(?<![\p{{L}}\p{{M}}])(?P<type>(?i:{types}))[ \t]+"
            rf"(?:(?:de|del|la|las|los|el|La|Las|Los|El)[ \t]+|\p{{Lu}}[\p{{L}}\p{{M}}]*[ \t]+){{0,3}}$",
            regex.V1)

    @cached_property
    def _facility_doctor(self) -> regex.Pattern[str] | None:
        """A facility's type, up to four words of its name, then a doctor's title, up to a
        span's start ("HOSPITAL GENERAL UNIVERSITARIO DR. " before "BALMIS")."""
        if not self.facility_types:
            return None
        types = _alternatives(self.facility_types)
        return regex.compile(
            rf"(?<![\p{{L}}\p{{M}}])(?P<type>(?i:{types}))[ \t]+"
            rf"(?:(?i:de|del|la|las|los|el)[ \t]+|\p{{Lu}}[\p{{L}}\p{{M}}]*\.?[ \t]+){{0,4}}"
            rf"(?i:dr|dra|doctor|doctora)\.?[ \t]*$", regex.V1)

    def _facility_as_person(self, text: str, span: Span) -> Span:
        """A person's span that opens with a facility's type ("Parc Hospitalari Martí i Julià",
        which became "Marian Burgos Rodríguez i Sánchez"): the hospital's label."""
        hospital = dict(self.category_labels).get("hospital")
        if hospital is None or span.fragments or not self.facility_types:
            return span
        found = self._facility_start.match(text, span.start)
        if found is None or found.end() >= span.end or not text[span.start].isupper():
            return span
        return replace(span, label=hospital)

    def _doctor_of_facility(self, text: str, span: Span) -> Span:
        """A clinician's span that is the name of the doctor a hospital is named after
        ("HOSPITAL GENERAL UNIVERSITARIO DR. BALMIS", "Hospital Universitario Dr. Peset"): the
        hospital, widened to its type."""
        head = self._facility_doctor
        hospital = dict(self.category_labels).get("hospital")
        if head is None or hospital is None or span.fragments:
            return span
        line_start = text.rfind("\n", 0, span.start) + 1
        found = head.search(text, max(line_start, span.start - 80), span.start)
        if found is None:
            return span
        return replace(span, start=found.start("type"), label=hospital)

    @cached_property
    def _facility_start(self) -> regex.Pattern[str]:
        types = _alternatives(self.facility_types)
        return regex.compile(rf"(?i:{types})(?![\p{{L}}\p{{M}}])")

    def _facility_whole(self, text: str, span: Span, previous_end: int) -> Span:
        """A hospital or health centre found without its type ("Mancha" of "Policlínica La
        Mancha", whose surrogate became "Policlínica La Hospital de Hellín"): widened to the
        facility type before it on its line, with the words between."""
        head = self._facility_head
        if head is None or span.fragments or span.score is None:
            return span  # a rule's span is as its rule wrote it
        line_start = max(text.rfind("\n", 0, span.start) + 1, previous_end)
        if span.start - line_start > 80 or self._facility_start.match(text, span.start) is not None:
            return span  # it has its type ("Hospital Universitario Fundación Santafé")
        found = head.search(text, line_start, span.start)
        if found is None or found.start("type") == span.start:
            return span
        return replace(span, start=found.start("type"))

    @cached_property
    def _street_head(self) -> regex.Pattern[str] | None:
        """A street's type, then its name's particles and capitalised words, up to a span's
        start ("Pg. de la Vall d'" before "Hebron")."""
        if not self.street_types:
            return None
        types = _alternatives(self.street_types)
        return regex.compile(
            rf"(?<![\p{{L}}\p{{M}}])(?P<type>{types})[ \t]*(?:(?:de|del|la|las|los|el|dels|d['’]|l['’])[ \t]*"
            rf"|\p{{Lu}}[\p{{L}}\p{{M}}]*\.?[ \t]*){{0,4}}$", regex.IGNORECASE | regex.V1)

    def _street_whole(self, text: str, span: Span, previous_end: int, next_start: int) -> Span:
        """A street span holding only the words of its name ("Hebron" of "Pg. de la Vall
        d'Hebron, 119-129"): widened to the street type before it on the line and to the house
        number (one to four digits, or a range) right after it, never into another span. A span
        with a number is left as it is: MEDDOCAN writes some streets without their type
        ("Eduardo Rivas, 3" after "C/"), and the tagger learnt which."""
        head = self._street_head
        if head is None or span.fragments:
            return span
        if any(c.isdigit() for c in text[span.start : span.end]):
            return span  # a number found with it: the tagger saw the street whole
        start, end = span.start, span.end
        line_start = max(text.rfind("\n", 0, start) + 1, previous_end)
        if not _LEADING_TYPE.match(text, start) and start - line_start <= 60:
            found = head.search(text, line_start, start)
            if found is not None:
                start = found.start("type")
        number = _HOUSE_NUMBER.match(text, end)
        if number is not None and number.end() <= next_start:
            end = number.end()
        return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)

    def _month_year(self, text: str, span: Span) -> Span:
        """An identifier the tagger doubted that is a month and a year in numbers after a word
        of time ("Percibe el Ingreso Mínimo Vital desde 02/2024", which had become "desde
        94/7653"): the date's label, so that it is shifted as a date."""
        date = dict(self.category_labels).get("date")
        if (date is None or span.score is None or span.score >= _DOUBT
                or not _MONTH_YEAR.fullmatch(text, span.start, span.end)
                or not _TIME_WORD_BEFORE.search(text[max(0, span.start - 12) : span.start])):
            return span
        return replace(span, label=date)

    def _age_or_kin(self, text: str, span: Span) -> Span:
        """A span that is an age ("64 años") or a kinship word alone ("Esposa") under another
        label: the age's or the relative's label (it was a street, a town); a kinship word with
        a capitalised name after it, the relative's ("madre, Fadma Mohand, 73 años" as a street
        had become "Alta, López Pérez, 99 años")."""
        value = text[span.start : span.end]
        words = [fold(w) for w in _WORDS.findall(value)]
        age = dict(self.category_labels).get("age")
        if age and self.age_units and _AGE.fullmatch(value) and words and words[-1] in self.age_units:
            return replace(span, label=age)
        unit = _UNIT_AFTER.match(text, span.end)
        if (age and self.age_units and value.isdigit() and len(value) <= 3 and unit is not None
                and fold(unit["unit"]) in self.age_units):
            return replace(span, label=age)  # "Benito Lasierra Pueyo, 79 años" with "79" as a town
        if self.relative and words and all(w in self.kinship for w in words) and len(words) <= 2:
            return replace(span, label=self.relative)
        kin = _KIN_AND_NAME.match(value)
        if self.relative and kin is not None and fold(kin["kin"]) in self.kinship \
                and not any(c.isdigit() for c in kin.group()) and (
                    kin["sep"] == ", " or fold(kin["name"].split()[0]) in self.all_given):
            # without a comma, a given name must follow: "Hermanos Falcó, s/n" is a street
            # "madre, Fadma Mohand, 73 años" as a street: the relative, without the age after;
            # "pare (Narcís Casadevall, 61 a.)": the name in the bracket
            start = span.start + (kin.start("name") if "(" in kin["sep"] else 0)
            return replace(span, start=start, end=span.start + kin.end(), label=self.relative)
        return span

    def _town_as_relative(self, text: str, span: Span) -> Span:
        """A relative's span that is a town of two capitalised words or more with a kinship word
        in its name ("Clínica Dental Cotán (Dos Hermanas)"): the town's label. Under the
        relative's, the kinship generator kept the kinship word, and the town stayed in clear."""
        value = text[span.start : span.end]
        words = _WORDS.findall(value)
        town = dict(self.category_labels).get("town")
        if (town and len(words) >= 2 and all(w[:1].isupper() for w in words)
                and any(fold(w) in self.kinship for w in words) and fold(value) in self.places):
            return replace(span, label=town)
        return span

    def _person_before_age(self, text: str, span: Span) -> Span:
        """A name with the person's age in apposition after it ("Se trata de Blessing Osagie,
        mujer de 31 años", which the tagger took for a company: the patient had become
        "Laboratorios Rubio"): the person's — a relative's after a kinship word, else the
        patient's. Capitalised words none of which is a word of the language but a name of the
        tables, and no place of them."""
        if span.fragments or not self.patient or not _AGE_APPOSITION.match(text, span.end):
            return span
        value = text[span.start : span.end]
        words = _WORDS.findall(value)
        if (not 1 < len(words) <= 4 or fold(value) in self.places or fold(value) in self.countries
                or not all(w[:1].isupper() and w[1:2].islower() for w in words)):
            return span
        if any(self._known(w) and fold(w) not in self.all_given and fold(w) not in self.surnames
               for w in words):
            return span
        return replace(span, label=self._title_or_kin(text, span) or self.patient)

    def _town_after_person(self, text: str, span: Span) -> tuple[Span, list[Span]]:
        """A person's span that ran on over "en" and a town of the tables ("comió paella en casa
        de su hija Neus en Gandia" as one relative: the town became a surname, "Emilia en
        González"): the person, then the town with the town's label."""
        town = dict(self.category_labels).get("town")
        if town is None or span.fragments or not self.places:
            return span, []
        m = _IN_TOWN.search(text, span.start, span.end)
        if m is None or m.end() != span.end or m.start() <= span.start or fold(m["town"]) not in self.places:
            return span, []
        return (replace(span, end=m.start()),
                [Span(m.start("town"), m.end("town"), town, source=span.source, score=span.score)])

    def _place_as_person(self, text: str, span: Span) -> Span:
        """A person's or relative's span that is a place the tables hold, no given name, after
        "en", "a", "desde", "hasta" or "hacia" ("su hermano vive en Nador", tagged as the
        relative): the town's label. Under a person's, the place became a surname."""
        town = dict(self.category_labels).get("town")
        value = text[span.start : span.end]
        if (town and value[:1].isupper() and fold(value) in self.places and fold(value) not in self.all_given
                and (_PLACE_PREPOSITION_BEFORE.search(text, max(0, span.start - 8), span.start)
                     # a saint's town after "de" ("Celler Mas Pujades, S.L. de Sant Martí Sarroca"
                     # had become "de Frías Guerra Montes": the twelfth set written blind)
                     or (_SAINTS_TOWN.match(value)
                         and _OF_BEFORE.search(text, max(0, span.start - 8), span.start)))):
            return replace(span, label=town)
        return span

    def _word_lead(self, text: str, span: Span) -> Span:
        """A person's span that opens with a capitalised word of the language no name table holds,
        a given name after it ("Soy María del Pilar Cueto Bada, la de la artritis": the verb had
        become part of the surrogate, "Aceituno Martí del Bosque…"): the name starts at the
        given name."""
        if span.fragments:
            return span
        words = list(_WORDS.finditer(text, span.start, span.end))
        if len(words) < 2 or words[0].start() != span.start:
            return span
        word = words[0].group()
        first, second = fold(word), fold(words[1].group())
        if (not word[:1].isupper() or word.isupper() or first in self.all_given or first in self.places
                or first in self.kinship or first in self.closed or first in _STREET_PARTICLES
                or second not in self.all_given or not self._known(word)
                or (first in self.surnames and not self._common(word.lower()))):  # "Soy" is a surname too
            return span
        return replace(span, start=words[1].start())

    def _devotional_place(self, text: str, span: Span) -> Span | None:
        """A place's span that is a common given name followed by a devotional end of the pack
        ("María" of "Estimada María del Pilar:", María a town of Almería: the name had become
        "Cuevas del Almanzora del Paloma"): the whole name, the patient's (None: anything else)."""
        patient = dict(self.category_labels).get("person_patient")
        value = text[span.start : span.end]
        m = _DEVOTION_AFTER.match(text, span.end)
        if (patient is None or m is None or not _SINGLE_WORD.fullmatch(value) or fold(value) not in self.given
                or fold(m.group().strip()) not in self.devotional):
            return None
        return replace(span, end=m.end(), label=patient)

    def _devotional_after(self, text: str, span: Span, limit: int) -> Span:
        """A given name cut before its devotional end ("María" of "Nombre: María del Cisne.",
        whose "del Cisne" stayed in clear: the eighth set, once the model was retrained): the
        pack's devotional names (``devotional_names``) after a given name are part of it."""
        if span.fragments or not self.devotional:
            return span
        words = _WORDS.findall(text, span.start, span.end)
        m = _DEVOTION_AFTER.match(text, span.end)
        if (not words or fold(words[-1]) not in self.all_given or m is None or m.end() > limit
                or fold(m.group().strip()) not in self.devotional):
            return span
        return replace(span, end=m.end())

    def _unit_cut(self, text: str, span: Span) -> Span:
        """A name running on into where the person works ("Dra. Casanovas de la Unidad de
        Ventilación", whose "Unidad" was then carried to "Ingresa en la Unidad de Semicríticos"
        as a surname: the twelfth set written blind): cut before a particle whose capitalised
        word after it is a word of the language that no name table holds."""
        if span.fragments:
            return span
        for m in _PARTICLE_WORD.finditer(text, span.start, span.end):
            key = fold(m["word"])
            if (m.start() > span.start and key not in self.surnames and key not in self.all_given
                    and key not in self.places and self._known(m["word"])):
                return replace(span, end=m.start())
        return span

    def _column_cut(self, text: str, span: Span) -> Span:
        """A name span running over a column gap (two spaces or more, a tab) into a word of the
        language no name table holds ("Dra. Sofía Medina   Anestesista: Dr. Ibáñez"): cut at
        the gap, or into the next field's key ("Antonio Jesús      Alias:")."""
        if span.fragments:
            return span
        gaps = list(_GAP.finditer(text, span.start, span.end))
        if not gaps:
            return span
        start, end = span.start, span.end
        last = gaps[-1]
        tail = text[last.end() : end]
        if self._ordinary_words(tail) or (_NUMBER_KEY.fullmatch(tail) and text[end : end + 1] == ".") \
                or (tail in ("N", "n") and text[end : end + 2] in (".º", ".°", "º ", "°.")):
            end = last.start()  # "Amparo Bellés Marzà   Núm. col. 12 12 03394", "…Seoane    N.º colegiado"
        elif _SINGLE_WORD.fullmatch(tail) and _KEY_COLON.match(text, end):
            end = last.start()  # "Antonio Jesús      Alias: «Tato»": the next field's key
        first = gaps[0]
        head = text[start : first.start()]
        if first.end() < end and self._ordinary_words(head):
            start = first.end()
        return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)

    def _role_cut(self, text: str, span: Span) -> Span:
        """A person's span opening with a role in capitals that is an occupation and no name
        ("Dotación: Médico Alfonso Cid Barahona / Enfermera …"): the name starts after it
        ("Médico" had become "Reyes"). Occupations that are surnames too ("Pastor") stay."""
        words = list(_WORDS.finditer(text, span.start, span.end))
        if span.fragments or len(words) < 3 or words[0].start() != span.start:
            return span
        first = words[0].group()
        key = fold(first)
        if not first[:1].isupper() or key not in self.professions or key in self.surnames \
                or key in self.all_given or text[words[0].end() : words[1].start()] != " ":
            return span
        return replace(span, start=words[1].start())

    def _town_after_street(self, text: str, span: Span) -> tuple[Span, list[Span]]:
        """A street span that ran on over the town after its number, floor and door, and its
        postal code ("C/ Coso Alto 31, 1º izda., Huesca (22003"): the street, then the town and
        the code as MEDDOCAN writes them (the street generator had made "Huesca" a surname)."""
        town = dict(self.category_labels).get("town")
        if town is None or span.fragments or not self.places:
            return span, []
        m = _TOWN_AFTER_STREET.search(text, span.start, span.end)
        if m is None or m.end() != span.end:
            # the postal code before the town ("PZA. DE ESPAÑA, 3, 2.º A, 13600 ALCÁZAR DE SAN JUAN"
            # as one street had become "…, 62051 TREJO ANGULO PÉREZ CABELLO": the twelfth set)
            m = _CODE_TOWN_AFTER_STREET.search(text, span.start, span.end)
        if m is None or m.end() != span.end or not any(c.isdigit() for c in text[span.start : m.start()]):
            return span, []
        if fold(m["town"]) not in self.places:
            return span, []
        after = [Span(m.start("town"), m.end("town"), town, source=span.source, score=span.score)]
        if m["code"]:
            after.append(Span(m.start("code"), m.end("code"), town, source=span.source, score=span.score))
        if m.re is _TOWN_AFTER_STREET and m["province"] and fold(m["province"]) in self.places:
            after.append(Span(m.start("province"), m.end("province"), town, source=span.source,
                              score=span.score))
        return replace(span, end=m.start()), after

    def _place_as_date(self, text: str, span: Span) -> Span | None:
        """A date's span that holds no digit and is a place of the tables, maybe after "en" or
        "de" ("en Burela" where a report is signed: a date keeps what it cannot read, and the
        town stayed): the place, with the town's label (None: anything else)."""
        town = dict(self.category_labels).get("town")
        value = text[span.start : span.end]
        if town is None or any(c.isdigit() for c in value):
            return None
        lead = _PLACE_LEAD.match(value)
        start = span.start + (lead.end() if lead else 0)
        if start >= span.end or fold(text[start : span.end]) not in self.places:
            return None
        return replace(span, start=start, label=town)

    def _ordinary_words(self, value: str) -> bool:
        words = _WORDS.findall(value)
        return bool(words) and all(len(w) > 1 and self._known(w) and fold(w) not in self.all_given
                                   and fold(w) not in self.surnames for w in words)

    def _signed_at(self, text: str, span: Span) -> Span:
        """A person's span that is a place of the tables opening a line, then a comma and a date
        ("Palma, 7 de agosto de 2024" where a report is signed: Palma is a surname too, and had
        become "Ruiz, 24 de marzo"): the town's label; the second name of a bilingual town
        takes the first with it ("Pamplona-Iruña", whose "Iruña" had become "Josefina")."""
        town = dict(self.category_labels).get("town")
        if town is None or span.fragments or not _SIGNED_DATE.match(text, span.end):
            return span
        start = text.rfind("\n", 0, span.start) + 1  # "Pamplona-" of "Pamplona-Iruña, 3 de marzo"
        parts = _BILINGUAL.split(text[start : span.end])
        if len(parts) > 2 or not all(fold(p) in self.places for p in parts):
            return span
        return replace(span, start=start, label=town)

    def _place_runs_on(self, text: str, span: Span, next_start: int) -> Span:
        """A facility's, organisation's or town's span ending with the first words of a place
        whose name goes on after it ("COMPLEXO HOSPITALARIO UNIVERSITARIO DE SANTIAGO" of "… DE
        SANTIAGO DE COMPOSTELA (CHUS)", which left "DE COMPOSTELA" in clear; "Breña" of "Breña
        Alta", which became "Tías Alta"): widened to the whole place, when the tables hold it."""
        if span.fragments:
            return span
        value = text[span.start : span.end]
        last = list(_WORDS.finditer(value))
        if not last:
            return span
        # the place may begin one to three words back ("… Beach de Sant Antoni" of "… de Sant
        # Antoni de Portmany", the sixth set written blind)
        firsts = [span.start + w.start() for w in last[-3:] if w.group()[:1].isupper()]
        best = span.end
        for m in _PLACE_GOES_ON.finditer(text, span.end, min(next_start, span.end + 40)):
            if any(fold(text[first : m.end()]) in self.places for first in firsts):
                best = m.end()
            if "\n" in m.group():
                break
        return span if best == span.end else replace(span, end=best)

    def _town_of_hospital(self, text: str, span: Span, next_start: int) -> Span:
        """A hospital's span followed by "de" and a town of the tables that no span holds
        ("Hospital Universitario Marqués de Valdecilla de Santander", whose "Santander" stayed
        in clear): the town joins the hospital's span, as MEDDOCAN writes it (38 of its
        hospitals end with their town, 5 have it apart)."""
        if span.fragments:
            return span
        m = _OF_TOWN.match(text, span.end, next_start)
        if m is None or fold(m["town"]) not in self.places:
            return span
        return replace(span, end=m.end())

    def _opening_word(self, text: str, span: Span) -> bool:
        """A person's span the tagger all but ruled out (under a tenth) that is one word of the
        language (or of the pack's stop list) opening a line or a sentence, a comma after it, and
        no given name: "Vigil,
        orientado en persona" of a psychiatric examination (Vigil is a surname of the table)
        had become "Cáceres, orientado"; or a word of the language that is a speaker's whole
        first sentence, given name or not ("[10:03] Dra. Saiz: Perfecto." had become "Ramona.")."""
        if span.fragments or span.score is None or span.score >= _DOUBT:
            return False
        value = text[span.start : span.end]
        if not _SINGLE_WORD.fullmatch(value) or not value[:1].isupper():
            return False
        before = text[max(0, span.start - 2) : span.start]
        if (before == ": " and text[span.end : span.end + 1] in (".", "!") and self._known(value)
                and fold(value) not in self.kinship
                and _SPEAKER_TURN.fullmatch(text, text.rfind("\n", 0, span.start) + 1, span.start)):
            return True  # a speaker's turn that opens with a word, a sentence of its own ("Saiz: Perfecto.")
        opens = span.start == 0 or before.endswith("\n") or before == ". "
        if span.score >= _DOUBT / 5 or fold(value) in self.all_given:
            return False
        return opens and text[span.end : span.end + 1] == "," and (
            fold(value) in self.stop or self._known(value))

    def _no_name(self, text: str, span: Span) -> bool:
        """A person's span that is prose, not a name: in lower case in a line with capitals
        ("Puesto: carretillero, turno de mañana"; "Mañana" is a given name of the table), or in
        a line in lower case with no common given name and no surname that is not also a
        word (a handover typed in lower case still writes "juan garcía"); capitalised, made of
        words of the language none of which a name table holds ("Ayudante: Dra. Sofía Medina",
        "Anestesista"). Only a span the tagger doubted (its mean
        marginal under ``_DOUBT``: one the de-identification point added) is dropped: in
        MEDDOCAN's gold, 3 names of 8,000 are such words, "madre" and "Mujer" (annotation slips)
        and "Josefino", which the tagger finds at 0.999."""
        value = text[span.start : span.end]
        words = _WORDS.findall(value)
        if not self.given or not words or span.score is None or span.score >= _DOUBT:
            return False  # a rule's span, or one the tagger is sure of ("Nombre: Josefino")
        if value == value.lower():
            if _line_has_capitals(text, span.start):
                return True  # "turno de mañana" in a line with capitals: its names have them
            return not any(fold(w) in self.given or (fold(w) in self.surnames and not self._known(w))
                           for w in words)
        return self._ordinary_words(value)  # an initial is a name's

    def _doubted_word(self, text: str, span: Span) -> bool:
        """A place span the tagger doubted that is one word of the language no place, name or
        surname table holds ("Neumología" in parentheses after a clinician, added at the
        de-identification point as a town; "Diestro" as a country), or an abbreviation no
        table holds, its full stop after it ("Tlf. contacto 1:", whose "Tlf" became "Villa de
        Mazo")."""
        if span.fragments or span.score is None or span.score >= _DOUBT or not self.places:
            return False
        value = text[span.start : span.end]
        words = _WORDS.findall(value)
        if len(words) != 1 or len(value) != len(words[0]) or value.isupper():
            return False  # two capitals are a place's code ("Dublin, CA")
        key = fold(value)
        if key in self.places or key in self.countries or key in self.all_given or key in self.surnames:
            return False
        if _CAPITAL_HYPHEN_BEFORE.search(text, max(0, span.start - 40), span.start) or _HYPHEN_CAPITAL.match(
                text, span.end):
            return False  # a part of a hyphened name ("Madame" of "66760 Bourg-Madame": the eleventh set)
        if text[span.end : span.end + 1] == "." and 2 <= len(value) <= 5 and not self._known(value):
            return True  # an abbreviation: "Tlf. contacto 1: 922…" with "Tlf" as a town
        return len(value) >= 4 and self._known(value)

    def _quoted_whole(self, text: str, span: Span, previous_end: int, next_start: int,
                      quoted: dict[int, tuple[list[int], list[regex.Match[str]]]] | None = None) -> Span:
        """A span inside a quoted name of capitalised words, widened to the whole name: the
        boat 'embarcación "Nueva Rosario"' found as "Rosario" left "Nueva" in clear. Only
        between quotation marks on one line, two to five capitalised words (particles
        between), touching no other span."""
        if span.fragments:
            return span
        line_start = text.rfind("\n", 0, span.start) + 1
        found = quoted.get(line_start) if quoted is not None else None
        if found is None:  # the line's quoted names, read once for all its spans (a line of
            # thousands of spans had been read again for each: quadratic)
            line_end = text.find("\n", span.start)
            matches = list(_QUOTED.finditer(text, line_start, len(text) if line_end < 0 else line_end))
            found = ([m.start() for m in matches], matches)
            if quoted is not None:
                quoted[line_start] = found
        starts, matches = found
        # the names do not overlap: only the last one opening before the span can hold it
        at = bisect.bisect_right(starts, span.start) - 1
        if at < 0:
            return span
        m = matches[at]
        start, end = m.start("name"), m.end("name")
        if (start <= span.start and span.end <= end and (start, end) != (span.start, span.end)
                and m.end() <= span.end + 80 and start >= previous_end and end <= next_start):
            return replace(span, start=start, end=end)
        return span

    def _doubted_lower(self, text: str, span: Span) -> bool:
        """A span the tagger doubted, under a label of proper names, that is one closed-class
        word in any case ("al no" after a hospital, cut to "no" by the trimming — "No" is a
        surname of the table; "Su" of "Su hijo Brais" as a hospital), or a lower-case word of
        the language no place, name or surname table holds. A note typed in lower case keeps
        its names and places: they are in the tables, or no word of the language ("alboraia",
        "puig")."""
        if span.fragments or span.score is None or span.score >= _DOUBT:
            return False
        value = text[span.start : span.end]
        if not _SINGLE_WORD.fullmatch(value):
            return False
        key = fold(value)
        if key in self.closed:
            return True  # "Su hijo Brais…" with "Su" as a hospital
        if value != value.lower():
            return False
        if key in self.retired:
            return True  # "pare (…, 61 a.), jubilat," with the Catalan "jubilat" as a town
        if self._category.get(span.label) in ("email", "url"):
            return self._known(value)  # "E-mail autor: …" with "autor" as an address
        if self._category.get(span.label) in ("hospital", "health_centre", "organisation") \
                and key in self._facility_type_words:
            return True  # "Llegada hospital 00:31": a kind of facility names none ("Hospital" is a surname)
        if self._category.get(span.label) in ("hospital", "health_centre", "organisation", "street"):
            # no organisation is a surname in lower case: "cama articulada en préstamo del
            # Ayuntamiento" ("Préstamo" is a surname of the table) had become "en Laboratorios Durán"
            return key not in self.places and key not in self.countries and self._known(value)
        return (key not in self.places and key not in self.countries and key not in self.all_given
                and key not in self.surnames and self._known(value))

    @cached_property
    def _facility_type_heads(self) -> frozenset[str]:
        """The first words of the facility types ("centro" of "centro de salud")."""
        return frozenset(fold(f).split()[0] for f in self.facility_types if " " in f)

    @cached_property
    def _facility_type_words(self) -> frozenset[str]:
        return frozenset(fold(f) for f in self.facility_types)

    @cached_property
    def _street_type_words(self) -> frozenset[str]:
        """The folded first words of the pack's street types ("calle", "c", "avda", "plaza")."""
        return frozenset(fold(w) for form in self.street_types for w in _WORDS.findall(form)[:1])

    def _doubted_street(self, text: str, span: Span) -> bool:
        """A street span the tagger doubted that is one word without a number: a word of the
        language or an abbreviation ("Hab." of "Hab. 21", the room). MEDDOCAN's streets hold a
        number or a type: 3 of its 1,296 are one word without a digit, all annotation slips."""
        if span.fragments or span.score is None or span.score >= _DOUBT:
            return False
        value = text[span.start : span.end]
        words = _WORDS.findall(value)
        if not any(c.isdigit() for c in value) and value == value.lower() and len(words) > 1 \
                and all(self._known(w) for w in words):
            return True  # "vive en" (no number, no capital: words of the sentence)
        if _NUMBER_THEN_WORDS.fullmatch(value) and all(self._known(w) for w in words):
            return True  # "Pfeiffer 7 errores" (a test's score) with "7 errores" as a street
        if (len(words) > 1 and not any(c.isdigit() for c in value)
                and fold(words[0]) not in self._street_type_words and all(self._known(w) for w in words)
                and any(w.islower() and fold(w) not in _STREET_PARTICLES for w in words[1:])):
            return True  # "Mejor el mío, 679 …" (a sentence's words) had become "La Matanza"
        if (words and not any(c.isdigit() for c in value) and _ENDS_WITH_PARTICLE.search(value)
                and self._known(words[0]) and fold(words[0]) not in self._street_type_words):
            return True  # "Atestado de la" of "Atestado de la Guardia Civil n.º AT-0418/2017"
        if len(words) != 1 or len(value) != len(words[0]) or fold(value) in self.places:
            return False
        return self._known(value) or (len(value) <= 4 and text[span.end : span.end + 1] == ".")

    def _company(self, text: str, span: Span) -> Span:
        """A name followed by a company's legal form ("Estampaciones Artola S.L.", "Autocars
        Riera S.A."), or cut inside it: the span takes the form and the organisation's label
        (a person's surrogate had turned "S.L." into "I.L.")."""
        if span.fragments:
            return span
        end = None
        if text[span.end - 2 : span.end] in (" S", "\tS"):
            rest = _LEGAL_REST.match(text, span.end)
            end = rest.end() if rest is not None else None
        if end is None:
            form = _LEGAL_FORM.match(text, span.end)
            end = form.end() if form is not None else None
        if end is None and _FOREIGN_FORM.search(text, span.start, span.end):
            end = span.end  # "Lumeris Biopharma GmbH" as a clinician
        if end is None and (after := _FOREIGN_AFTER.match(text, span.end)) is not None:
            end = after.end()  # "Lumeris" of "Lumeris Biopharma GmbH"
        if end is None:
            return span
        label = dict(self.category_labels).get("organisation", span.label)
        return replace(span, end=end, label=label)

    def _known(self, word: str) -> bool:
        """A word of the language ("malla" is also a surname): the lexicon knows it."""
        from .lexicon import lexicon

        try:
            return lexicon().is_known(word.lower(), self.language)
        except ValueError:
            return False

    # -- edges ------------------------------------------------------------------------------
    def _trimmed(self, text: str, span: Span, edges: bool = True) -> Span | None:
        """The span without lower-case function words at its edges (None: it held nothing else;
        ``edges=False``: only that)."""
        if not self.function_words or span.fragments:
            return span
        words = list(_WORDS.finditer(text, span.start, span.end))
        kept = [m for m in words if not (m.group() == m.group().lower() and m.group() in self.function_words)]
        if not kept:
            return None if words and not any(c.isdigit() for c in text[span.start : span.end]) else span
        if not edges:
            return span
        start = span.start if kept[0] is words[0] else kept[0].start()
        end = span.end if kept[-1] is words[-1] else kept[-1].end()
        # a number is never cut off ("de 4 años"): only words and spacing are
        if any(c.isdigit() for c in text[span.start : start]):
            start = span.start
        if any(c.isdigit() for c in text[end : span.end]):
            end = span.end
        return span if (start, end) == (span.start, span.end) else _shrunk(span, start, end)

    # -- labels -----------------------------------------------------------------------------
    def _article_town(self, text: str, span: Span, previous_end: int) -> Span:
        """A person's or town's span that, with the article written before it, is a town of the
        tables ("su padre, Airam Hernández, de Los Llanos de Aridane" with "Llanos de Aridane"
        as a town made of given names, then the patient, which became "Los Mohamed de
        Muñoz"): the town, article included."""
        town = dict(self.category_labels).get("town")
        article = _ARTICLE_BEFORE.search(text, max(previous_end, span.start - 5), span.start)
        if town is None or span.fragments or article is None:
            return span
        if fold(text[article.start() : span.end]) not in self.places:
            return span
        return replace(span, start=article.start(), label=town)

    def _hyphened_town(self, text: str, span: Span) -> Span:
        """A town span cut at a hyphen inside the town's name ("Vila" of "Vila-real", which
        became "Valencia-real"): the whole name, where the tables hold it."""
        if span.fragments:
            return span
        more = _HYPHEN_WORD.match(text, span.end)
        if more is None or fold(text[span.start : more.end()]) not in self.places:
            return span
        return replace(span, end=more.end())

    def _refit(self, text: str, span: Span, kind: str, previous: Span | None) -> Span:
        """A country, town, e-mail or web span whose text cannot be one, relabelled as the
        person the text says it is; otherwise unchanged."""
        value = text[span.start : span.end]
        key = fold(value)
        category = self._category
        if (kind == "town" and previous is not None and category.get(previous.label) in _NAMED_PEOPLE
                and _COMMA.fullmatch(text, previous.end, span.start) and key not in self.places
                and self._given_names_only(value)):
            return replace(span, label=previous.label)  # "GARCÍA LÓPEZ, MARÍA DEL CARMEN"
        if kind == "country" and (key in self.countries or self._like_country(key)):
            return span
        if kind == "country" and key in self.places:
            # a town, region or island the tagger read as a country ("Centro de Salud de Tinajo
            # (Lanzarote)" had become "(Sánchez)" when a person's label won): a place's label
            town = dict(self.category_labels).get("town")
            return span if town is None else replace(span, label=town)
        if (kind == "town" and span.score is not None and span.score < _DOUBT and key in self.surnames
                and _INITIAL_BEFORE.search(text, max(0, span.start - 4), span.start)):
            return replace(span, label=self._title_or_kin(text, span) or self.clinician or span.label)
            # "Firma IP: U. Castro" (Castro is a town) had become "U. Punta Arenas"
        if kind == "town":
            # a town's name is often a given name's ("Vitoria", "Estella", "Santa María"): only
            # one the pack's places lack, made of given names, is a person's
            evidence = self._title_or_kin(text, span)
            if key in self.places or (evidence is None and not self._given_names_only(value)):
                return span
            return replace(span, label=evidence or self.patient) if (evidence or self.patient) else span
        if kind == "email" and "@" in value:
            return span
        if kind == "url" and ("." in value or "/" in value):
            return span
        label = self._person_label(text, span, value)
        return span if label is None or label == span.label else replace(span, label=label)

    def _person_label(self, text: str, span: Span, value: str) -> str | None:
        evidence = self._title_or_kin(text, span)
        if evidence is not None:
            return evidence
        return self.patient if self._names_only(value) else None

    def _title_or_kin(self, text: str, span: Span) -> str | None:
        """The person label the words just before the span give: a clinician's title, a
        courtesy title (the patient), a kinship word (a relative)."""
        if not _LETTER.search(text, span.start, span.end):
            return None  # a number is nobody's name
        line_start = text.rfind("\n", 0, span.start) + 1
        before = list(_WORDS.finditer(text, max(line_start, span.start - 40), span.start))
        if not before:
            return None
        titles = self._titles
        last = before[-1]
        role = titles.get(fold(last.group())) or titles.get(fold(last.group()) + ".")
        if role is not None and _TITLE_GAP.fullmatch(text, last.end(), span.start):
            return self.clinician if role == "clinician" else self.patient
        if any(fold(m.group()) in self.kinship and not _SENTENCE_END.search(text, m.start(), span.start)
               for m in before[-3:]):
            return self.relative
        return None

    def _like_country(self, key: str) -> bool:
        """A country misspelt ("Chie"): within one edit or so of a country's name."""
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        found = process.extractOne(key, self.countries, scorer=Levenshtein.distance, score_cutoff=1)
        return found is not None

    def _content_words(self, value: str) -> list[str]:
        return [fold(w) for w in _WORDS.findall(value) if fold(w) not in self.function_words]

    def _given_names_only(self, value: str) -> bool:
        words = self._content_words(value)
        return bool(words) and all(w in self.given for w in words)

    def _names_only(self, value: str) -> bool:
        words = self._content_words(value)
        return bool(words) and all(w in self.given or w in self.surnames for w in words) \
            and fold(value) not in self.places and fold(value) not in self.countries


#: A blood gas's or oximetry's analytes: no street has them.
_BLOOD_GAS = regex.compile(
    r"(?<![\p{L}\p{N}])(?:p(?:CO2|O2)|HCO3|SatO2|FiO2|SaO2|SpO2|EtCO2)(?![\p{L}\p{N}])")
#: "c/" in lower case at a street span's start: a telegraphic note's "con" too (a note in capitals
#: writes "C/ MAYOR 3").
_C_SLASH = regex.compile(r"c/[ \t]*")
#: Articles a street's name may start with in capitals ("C/ A Choupana", "C/ ES PLA").
_STREET_ARTICLES = frozenset({"A", "O", "AS", "OS", "ES", "EL", "LA", "LAS", "LOS", "LES", "ELS", "SA", "SES",
                              "DE", "DEL", "SAN", "STA"})


#: Words a relative's span never ends with (MEDDOCAN's never does).
_TRAILING_PREPOSITIONS = frozenset({"en", "de", "del", "con", "a", "al", "por", "para", "y", "e", "o", "u",
                                    "que"})


def _without_trailing(text: str, span: Span, words: frozenset[str]) -> Span | None:
    """``span`` without the lower-case ``words`` at its end (None if nothing else is left)."""
    if span.fragments:
        return span
    found = list(_WORDS.finditer(text, span.start, span.end))
    end = span.end
    while found and found[-1].group() in words:
        found.pop()
        end = found[-1].end() if found else span.start
    if end == span.end or any(c.isdigit() for c in text[end : span.end]):
        return span  # a number is never cut off ("padre de 39")
    return _shrunk(span, span.start, end) if found else None


def con_acronyms(value: str, clinical: Collection[str] = ()) -> bool:
    """A street "c/" (in lower case) followed by acronyms alone ("c/ ADO", "c/ GN 2l", "c/ VMK 28"):
    a telegraphic note's "con", since a street's name after "C/" has a word in lower case, or is an
    article and a name ("C/ A Choupana"), or stands in a note in capitals ("C/ MAYOR 3"). The
    sixteenth set written blind had "DM2 c/ ADO" become "c/ LEONCIO SERRANO"."""
    found = _C_SLASH.match(value)
    if found is None:
        return False
    words = [w for w in _WORDS.findall(value[found.end():]) if len(w) > 1]  # not a unit's "l" ("2l")
    return bool(words) and all(
        (w.isupper() and len(w) <= 5 and w not in _STREET_ARTICLES) or w in clinical for w in words)


def _alternatives(forms: Iterable[str]) -> str:
    """The written forms as one regex alternation, longest first (so "Pº" never cuts "Pº.")."""
    return "|".join(regex.escape(f) for f in sorted(forms, key=len, reverse=True))


def _glued(text: str, span: Span) -> bool:
    """Is the span joined to a letter or digit by a hyphen, slash or full stop ("5400-544", a
    postal code; "119-129", a street's numbers; "0412-007")? Then it is a piece of a longer
    identifier, not a number alone."""
    before, after = text[max(0, span.start - 2) : span.start], text[span.end : span.end + 2]
    return bool(_GLUE_BEFORE.fullmatch(before) or _GLUE_AFTER.fullmatch(after))


_GLUE_BEFORE = regex.compile(r"[\p{L}\p{N}][-/.]")
_GLUE_AFTER = regex.compile(r"[-/.][\p{L}\p{N}]")
#: A capitalised word after a number on its line: a street's name after its house number ("14
#: Otley Road", as English addresses write it).
_NAME_AFTER = regex.compile(r"[ \t]\p{Lu}\p{Ll}+")


def _in_prose(text: str, span: Span) -> bool:
    """Is a word among lower-case words: none capitalised right before it, the next three in
    lower case ("Trabaja de auxiliar administrativa"), unlike a piece of a longer name ("Puesto
    de la Guardia Civil", "Hermanos Sangro", "SECTOR ZARAGOZA III")?"""
    before = _WORDS.findall(text[max(0, span.start - 30) : span.start].rsplit("\n", 1)[-1])
    if before and before[-1][:1].isupper():
        return False
    after = _WORDS.findall(text[span.end : span.end + 40].split("\n", 1)[0])[:3]
    return len(after) == 3 and all(w.islower() for w in after)


def _table_cut(text: str, span: Span) -> Span:
    """A tagger's span over a table's columns, a number among them ("esposa           81    ama"
    as a relative, "52    tractorista" as an occupation: a household table of the twelfth set
    written blind, whose ages were replaced with the words): the longest run of its cells that
    holds no number alone, the first of equals. A rule's span is left as it is."""
    if span.fragments or span.score is None:
        return span
    gaps = list(_GAP.finditer(text, span.start, span.end))
    if not gaps:
        return span
    bounds = [span.start, *(b for g in gaps for b in g.span()), span.end]
    cells = [(bounds[k], bounds[k + 1]) for k in range(0, len(bounds), 2)]
    if not any(_NUMBER_CELL.fullmatch(text, a, b) for a, b in cells):
        return span
    runs: list[tuple[int, int]] = []
    for a, b in cells:
        if _NUMBER_CELL.fullmatch(text, a, b):
            runs.append((-1, -1))
        elif runs and runs[-1][0] >= 0:
            runs[-1] = (runs[-1][0], b)
        else:
            runs.append((a, b))
    # a run of words only: an empty cell after a gap or a bracket alone is none ("1  " had become
    # an empty span, "1  :" the colon)
    best = max((r for r in runs if r[0] >= 0 and _LETTER.search(text, r[0], r[1])),
               key=lambda r: r[1] - r[0], default=None)
    return span if best is None else replace(span, start=best[0], end=best[1])


#: A road code's letters at a span's end ("Ctra. N", "A", "CV", "AP").
_ROAD_PREFIX_END = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}{1,3}$")
#: One or two words right before a span, on its line ("ama " of "ama de casa").
_WORDS_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])\p{L}+(?:[ ]\p{L}+)?[ ]$")
#: A town named after a saint, two words or more ("Sant Martí Sarroca", "San Vicente del Raspeig").
_SAINTS_TOWN = regex.compile(r"(?:Sant|San|Santa|Santo|Sankt)[ ]\p{Lu}\p{L}+(?:[ ]\S+)*")
#: "de" right before a span.
_OF_BEFORE = regex.compile(r"(?<![\p{L}])(?:de|del)[ ]$")
#: A particle inside a name and the capitalised word after it ("de la Unidad").
_PARTICLE_WORD = regex.compile(r"[ ](?:de[ ]la|de[ ]los|de[ ]las|del|de)[ ](?P<word>\p{Lu}\p{Ll}+)")
#: A table's cell that is a number alone ("81", "52", "1,5").
_NUMBER_CELL = regex.compile(r"\d{1,4}(?:[.,]\d+)?")


def _hyphen_compound(text: str, span: Span, floor: int, ceiling: int) -> Span:
    """A name or place span cut at a hyphen of a compound whose other parts are capitalised
    ("Ingrid Bauer" of "Ingrid Bauer-Lohse", "Holstein" of "Schleswig-Holstein", "Marie" of
    "Oloron-Sainte-Marie"), the whole compound between ``floor`` and ``ceiling``: the part
    left out had been left in the output ("Rúa-Lohse", "Schleswig-García")."""
    if span.fragments:
        return span
    start, end = span.start, span.end
    while (before := _CAPITAL_HYPHEN_BEFORE.search(text, max(floor, start - 40), start)) is not None:
        start = before.start()
    while (after := _HYPHEN_CAPITAL.match(text, end, ceiling)) is not None:
        end = after.end()
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)


#: A capitalised word and a hyphen right before a span ("Schleswig-" of "Schleswig-Holstein").
_CAPITAL_HYPHEN_BEFORE = regex.compile(r"(?<![\p{L}\p{N}'’.])\p{Lu}\p{L}*-$")
#: A hyphen and a capitalised word right after a span ("-Lohse" of "Bauer-Lohse").
_HYPHEN_CAPITAL = regex.compile(r"-\p{Lu}\p{L}*(?![\p{L}\p{N}])")


def bilingual_parts(name: str) -> list[str]:
    """Each name of a bilingual one ("Vitoria-Gasteiz", "Alboraia/Alboraya"), of four letters
    or more; none for a name of one language."""
    parts = _BILINGUAL.split(name)
    return [p for p in parts if len(p) > 3] if len(parts) > 1 else []


def folded_entries(pack: LanguagePack, tables: Sequence[str], parts: bool = False) -> frozenset[str]:
    """The tables' entries, folded; with ``parts`` also each name of a bilingual one
    ("Vitoria-Gasteiz", "Estella/Lizarra": MEDDOCAN writes "Vitoria", "Estella"). Built once
    per pack (``crfdeid.derived``: several steps ask for the same tables)."""

    def build() -> set[str]:
        out: set[str] = set()
        for name in tables:
            if name in pack.tables:
                for entry in pack.table(name).entries:
                    out.add(fold(entry))
                    if parts:
                        out.update(fold(p) for p in bilingual_parts(entry))
        return out

    name = f"folded|{','.join(tables)}|parts={parts}"
    return pack_set(pack, name, build, (sys.modules[__name__], langpack))


def _heading(text: str, at: int) -> bool:
    """Is the line of ``at`` a heading: a few words all in capitals, no field's colon and no
    sentence's comma or full stop ("SU HIJO JUAN DE DIOS, GUARDIA CIVIL…" in a note typed in
    capitals is prose), in a note that writes lower case elsewhere?"""
    line = _line_at(text, at)
    return (":" not in line and "," not in line and ". " not in line.strip() and line == line.upper()
            and len(_WORDS.findall(line)) <= 16 and any(c.islower() for c in text))


def _line_has_capitals(text: str, at: int) -> bool:
    """Does the line of ``at`` hold a capital letter (its writer uses them)?"""
    line = _line_at(text, at)
    return line != line.lower()


def _line_at(text: str, at: int) -> str:
    """The line of ``text`` that holds offset ``at``, without its line break."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start : end if end >= 0 else len(text)]


#: A file's extension: a format's name, never a person's, a place's or an address.
_EXTENSION = regex.compile(
    r"(?i)jpe?g|png|gif|bmp|tiff?|heic|webp|pdf|docx?|xlsx?|pptx?|odt|ods|rtf|txt|csv|xml|json|html?"
    r"|dcm|zip|mp[34]|mov|avi|wav|ogg|opus|m4a"
    # a notebook's, a script's, a data file's (the nineteenth set written blind:
    # "visitas_domicilio_moratalla.ipynb" had become "….rojo")
    r"|ipynb|py|rmd|sql|md|yaml|yml|parquet|sav|dta|log|eml|msg|ics|vcf|hl7|svg|7z|gz|tar")


def _glued_digits(text: str, span: Span) -> bool:
    """Is the span digits alone glued to the lower-case letters before it ("64" of a data frame's
    "dtype: int64", read as a street: the nineteenth set written blind)? No place is written so;
    after capitals it is a code's end ("usuari FAR0917"), which the code's steps make whole."""
    return (span.start > 0 and text[span.start - 1].isalpha() and text[span.start - 1].islower()
            and text[span.start : span.end].isdigit() and not text[span.end : span.end + 1].isalnum())


def _file_extension(text: str, span: Span) -> bool:
    """Is the span a file's extension ("IMG_20261124_103512.jpg", "informe.pdf")? The eighteenth
    set's photo listing had "jpg" and "jpeg" read as e-mail addresses and replaced."""
    return (span.start >= 2 and text[span.start - 1] == "." and text[span.start - 2].isalnum()
            and _EXTENSION.fullmatch(text, span.start, span.end) is not None
            and not text[span.end : span.end + 1].isalnum())


def _runaway_cut(text: str, span: Span) -> Span:
    """A name or an address ends at a semicolon or at a closing parenthesis it did not open:
    the tagger ran a street on from "(barrio de Triana" over ")." into the rest of the line
    ("… Portal con un escalón; llave de emergencia en el bar de la esquina"), which its
    surrogate then replaced."""
    value = text[span.start : span.end]
    cut, depth = None, 0
    for k, char in enumerate(value):
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                cut = k
                break
            depth -= 1
        elif char == ";":
            cut = k
            break
    if not cut:  # none, or at the very start (left to the rest of the step)
        return span
    end = span.start + len(value[:cut].rstrip(" \t.,:"))
    return replace(span, end=end) if end > span.start else span


def _elision_cut(text: str, span: Span) -> Span:
    """A span that ends with an elided article or preposition cut from its word ("Unitat
    d'Hospitalització Psiquiàtrica d" + "'Aguts", whose surrogate became "Església'Aguts")
    ends before it."""
    value = text[span.start : span.end]
    if (len(value) > 2 and value[-2] == " " and value[-1] in "dlDL"
            and text[span.end : span.end + 1] in ("'", "’")):
        return replace(span, end=span.end - 2)
    return span


def _whole_words(text: str, span: Span) -> Span:
    """A name span that cuts a word is widened to the whole word ("Lumeris Biopharma Gmb" of
    "GmbH", whose surrogate became "Noah Luna AlbarránH"): no surrogate can replace part of
    a word."""
    start, end = span.start, span.end
    # not where the case turns from lower to upper: MEDDOCAN glues a name to the next field
    # ("Marta Ortega MartínezNºCol", "DRAlberto Miján")
    if 0 < end < len(text) and text[end - 1].isalpha() and text[end].isalpha() and (
            text[end].islower() or text[end - 1].isupper()):
        while end < len(text) and text[end].isalpha():
            end += 1
    if 0 < start < end and text[start - 1].isalpha() and text[start].isalpha() and (
            text[start].islower() or text[start - 1].isupper()) and not (
            text[start].isupper() and text[start - 1].isupper() and text[start + 1 : start + 2].islower()):
        while start > 0 and text[start - 1].isalpha():
            start -= 1
    if text[end - 3 : end] == "Gmb" and text[end : end + 1] == "H":
        end += 1  # the legal form the tokenizer cut at its capital
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)


def _doubted_scrap(text: str, span: Span) -> bool:
    """A span the tagger doubted that is an abbreviation with an ordinal mark and no digit ("nº"
    of "Juzgado de Instrucción nº 2" as an organisation, which became "Laboratorios Mesa"). Two
    letters alone stay: "Dublin, CA" and the "L" of "L’Hospitalet" are places."""
    if span.score is None or span.score >= _DOUBT:
        return False
    value = text[span.start : span.end]
    return (not any(c.isdigit() for c in value) and sum(c.isalpha() for c in value) <= 2
            and any(c in "ºª°" for c in value))


def _doubted_key(text: str, span: Span) -> bool:
    """A span the tagger all but rejected (mean marginal < 0.1) that is a form field's name: at
    a line's start or after a column gap, dot leaders or a colon after it ("DNI ...... 20417733N"
    with "DNI" as a town had become "ALICANTE ...... 62931365F": the fifteenth set written blind)."""
    if span.score is None or span.score >= _DOUBT / 5 or span.fragments:
        return False
    if _KEY_AFTER.match(text, span.end) is None:
        return False
    gap = span.start  # the spacing right before it: a line's start or a column gap
    while gap > 0 and text[gap - 1] in " \t":
        gap -= 1
    return gap == 0 or text[gap - 1] == "\n" or span.start - gap >= 2 or text[span.start - 1] == "\t"


#: What follows a form field's name: dot leaders or a colon.
_KEY_AFTER = regex.compile(r"[ \t]*(?:\.{3,}|:)")


def _clock_part(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` the hour or the minutes of a time of day ("14" or "32" of
    "14:32")?"""
    value = text[start:end]
    if not value.isdigit() or len(value) > 2:
        return False
    if int(value) <= 24 and _MINUTES.match(text, end):
        return True
    if len(value) == 2 and text[start - 1 : start] == ":":
        hour = start - 1
        while hour > max(0, start - 3) and text[hour - 1].isdigit():
            hour -= 1
        return _TIME.fullmatch(text, hour, end) is not None
    return False


#: A greeting before the name it greets ("Hola IONUT", "Dear GRAHAM", "Estimada María").
_GREETING = regex.compile(
    r"(?i:hola|dear|hi|hello|querid[oa]|estimad[oa]|apreciad[oa]|buen[oa]s[ ](?:días|tardes|noches)|kaixo"
    r"|egun[ ]on|bon[ ]dia|bona[ ]tarda)[ \t,]+(?=\p{Lu})")

#: Quotation marks: a span may hold a quotation whole, never one of its marks alone.
_QUOTES = frozenset('"“”«»„')


def _unquoted(text: str, span: Span) -> Span | None:
    """The span without a quotation mark at an edge whose partner is not inside it, or without
    the two marks that wrap it whole: a YAML export's ``name: "Oliver James"`` had become a span
    '"Oliver James' (None: only marks)."""
    if span.fragments:
        return span
    start, end = span.start, span.end
    value = text[start:end]
    pairs = sum(c in _QUOTES for c in value)
    if pairs == 2 and value[0] in _QUOTES and value[-1] in _QUOTES:
        start, end, pairs = start + 1, end - 1, 0  # '"Yeyo"': the name, not its marks
    while start < end and text[start] in _QUOTES and pairs % 2:
        start, pairs = start + 1, pairs - 1
    while end > start and text[end - 1] in _QUOTES and pairs % 2:
        end, pairs = end - 1, pairs - 1
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if not any(c.isalnum() for c in text[start:end]):
        return None
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)


def _shrunk(span: Span, start: int, end: int) -> Span | None:
    if start >= end:
        return None
    return replace(span, start=start, end=end)
