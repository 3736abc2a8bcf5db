"""A given name standing alone in the narrative is a person.

A note names the patient in its header ("Nombre: Guillermo") and then, now and again, by the
given name alone: "En la exploración física Guillermo estaba consciente", "Marisol vive sola".
The tagger learnt names from headers and "Dr." lines; a lone capitalised word in running text
it mostly leaves out (MEDDOCAN dev: Guillermo, Marisol and Maialen were missed, each a leak).
The shape is telling: a word the given-name list holds, borne by many people, inside a
sentence (after a lower-case word or a comma) or opening one, and followed by a lower-case word
— a verb, not the rest of a street, hospital or disease name ("Rosa de Bengala", "Santiago de
Compostela", "Wei et al." stop there); an article counts as that verb's pronoun when a
lower-case word follows it or a comma precedes it ("Beatriz la acompaña", "Raúl, la amenazó").
Opening a sentence, a capital says nothing, so there the word must also be unknown to the
language's lexicon ("Segundo tiempo", "Dolores óseos" are words; "Marisol vive" is not).

Over MEDDOCAN train+dev (750 notes, gold spans ignored) this finds 15 words, all PHI: 10 gold
names, 3 countries ("volvió a Argentina donde…") and 2 patients the annotators missed ("Iria
viene acompañada", "Sheila se intervino"); without the lexicon test it also took "Segundo
tiempo…" and "Dolores óseos". ``tests/test_lone_names.py`` holds invented cases of each.

A span is added only where nothing was detected, with the pack's patient label, or its
relative label when a kinship word stands just before ("su hermana mayor Maite"). The step is
the pack's to switch on (``lone_names`` in its ``pack.yaml``): the thresholds depend on what
its given-name table counts.
"""

from __future__ import annotations

import sys
from bisect import insort
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex

from . import langpack
from .derived import pack_set
from .langpack import LanguagePack, fold
from .merge import Ranges
from .taken import Taken, overlapping
from .taken import touching as touching_ranges
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "lone-name"
#: Where a name after a title that took the place of the tagger's spans inside it comes from.
TITLED_SOURCE = "titled-name"
#: Where a name of a note typed in lower case comes from (``Span.source``).
LOWER_SOURCE = "lower-case-name"
#: A capitalised word of three letters or more, whole (not glued to a hyphen, apostrophe or dot).
_WORD = regex.compile(r"(?<![\p{L}\p{N}.'’-])\p{Lu}\p{Ll}{2,}(?![\p{L}\p{N}'’-])")
#: What follows on the same line: a lower-case word, maybe after a comma.
_AFTER = regex.compile(r"(?:[ \t]*,)?[ \t]+(?P<word>\p{Ll}+)\b")
#: After a genus's first letters, a species' letter and a number: an allergen's name in the
#: WHO/IUIS nomenclature ("Ara h 9", "Pru p 3", "Bet v 1"), whose "Ara" is also a given name.
_ALLERGEN = regex.compile(r"[ ]\p{Ll}[ ]\d{1,2}(?:\.\d+)?(?![\p{L}\p{N}])")
#: What precedes on the same line: a lower-case word (maybe with a comma), a comma, or a
#: sentence's end; or nothing (the line starts here).
_BEFORE = regex.compile(r"(?:(?:^|(?<=[ \t]))(?P<word>\p{Ll}+),?|,|(?P<stop>\S*[.!?:;]))[ \t]+$|^[ \t]*$")
#: Words after which a capitalised word is part of a longer name ("enfermedad de Wilson",
#: "Casa la Rosa", "San Eloy"), never the person on its own.
_JOINING = frozenset({"de", "del", "la", "las", "el", "los", "y", "e", "i", "san", "santa", "santo",
                      "sant", "von", "van", "da", "do", "dos", "di", "du"})
#: Words after which a capitalised word is the first of a longer name or a citation ("Rosa de
#: Bengala", "Wei et al.").
_CONTINUING = _JOINING | {"et"}
#: Articles that are also object pronouns: after a name, before a lower-case verb.
_PRONOUNS = frozenset({"la", "las", "el", "los"})
_LOWER_NEXT = regex.compile(r"[ \t]+\p{Ll}")
#: A title ("Dr.", "Sra", "Dña.") and the capitalised name after it: one to three words, with
#: the particles of a name between them. The name is read ahead, not consumed: "el Dr. Sainz"
#: tries "el", then "Dr".
_TITLED = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<title>\p{L}{1,9}|Dª)(?P<dot>\.)?(?=[ \t]+"
    r"(?P<name>\p{Lu}\p{Ll}+(?:[ \t]+(?:(?:de|del|de[ \t]+la|de[ \t]+los|y|i)[ \t]+)?\p{Lu}\p{Ll}+){0,2})"
    r"(?![\p{L}\p{N}'’-]))"
)
#: A particle inside a name and the capitalised word after it ("de la Unidad").
_PARTICLE_WORD = regex.compile(
    r"[ \t]+(?:de[ \t]+la|de[ \t]+los|de[ \t]+las|del|de)[ \t]+(?P<word>\p{Lu}\p{Ll}+)")
#: "doctor"/"doctora" and one or two lower-case words: a dictated name ("comunicado
#: telefónicamente al doctor sanguino": the eleventh set written blind).
_TITLED_LOWER = regex.compile(
    # "dra garces" without its dot, as a hurried note writes it (not "DR", an acronym in capitals)
    r"(?<![\p{L}\p{N}])(?:(?i:doctora?|dra?\.)|[Dd]ra?(?=[ \t]))[ \t]+"
    r"(?P<first>\p{Ll}+)(?:[ \t]+(?P<second>\p{Ll}+))?"
    r"(?![\p{L}\p{N}'’-])")
#: A title and a person's initials after it ("Dr. J. M. R. (MIR 4 Cirugía)", "Dra. M.J.L."):
#: two to four capitals, each with its dot.
_TITLED_INITIALS = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<title>\p{Lu}\p{L}{0,8})(?P<dot>\.)?[ \t]+"
    r"(?P<name>\p{Lu}\.(?:[ \t]?\p{Lu}\.){1,3})(?![\p{L}\p{N}])")
#: Where a capitalised name starts after spaces: the few places ``_TITLED`` can match, found
#: ~4x faster than trying it at every word (``titled_matches``); from a run of spaces' first
#: only (from each of its spaces the scan had read the rest of the run: quadratic in the run).
_NAME_AHEAD = regex.compile(r"(?<![ \t])[ \t]+(?=\p{Lu}\p{Ll})")
#: After a name, what makes it a street's: a comma and a number ("Dr. Esquerdo, 46").
_STREET_NUMBER = regex.compile(r"[ \t]*,?[ \t]*(?:n[º°o]\.?[ \t]*)?\d")
#: A note (or a line) is typed in lower case when no more of its letters than this share are
#: capitals: a handover typed in lower case has none; MEDDOCAN's prose, 1-2 % (three of its 750
#: notes are under 2 %).
_FEW_CAPITALS = 0.005
_NOT_LETTERS = regex.compile(r"\P{L}+")
_CAPITAL = regex.compile(r"\p{Lu}")
#: A line of forty characters or more, and the codes in it (a word with a digit: "BCSTMN560718611"),
#: whose capitals say nothing of the line's case (a dictated report's "tarjeta sanitaria
#: BCSTMN560718611 dos puntos": the twelfth set written blind).
_LONG_LINE = regex.compile(r"(?m)^[^\n]{40,}$")
#: (A whole word with a digit, tried at word starts only: the pattern without the anchor took
#: 85 s over a 100,000-letter line, each start backtracking to the line's end.)
_CODE = regex.compile(r"(?<![\p{L}\p{N}])(?=\p{L}*+\p{N})[\p{L}\p{N}]++")
#: Two or three lower-case words on one line: a name in a note typed in lower case (the given
#: name maybe compound: "juan de dios").
_LOWER_NAME = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<given>\p{Ll}{3,}(?:[ ](?:de|del|de[ ]la|de[ ]los)[ ]\p{Ll}{3,})?)"
    r"[ ](?P<second>\p{Ll}{3,})(?:[ ](?P<third>\p{Ll}{3,}))?"
    r"(?![\p{L}\p{N}])")
#: The last word of a compound given name that is no given name itself ("Juan de Dios").
_DEVOTIONAL = frozenset({"dios", "jesus", "cruz"})
#: How far back a kinship word makes the name a relative's ("su hermano mayor, Ovidio").
_KIN_WINDOW = 3
#: A capitalised word of three letters or more after a word and one space: where a name after
#: a kinship word may start ("esposa Sabine Brenner", "sobrina Inmaculada Carmona Ruz", "germana
#: Laia"); the kinship word is looked up behind it (``_KIN_BEFORE``), the name read from it
#: (``_KIN_NAME_AT``: one to three capitalised words, particles between).
#: (or on the next line, indented: a list's item going on, "pide llamar a su sobrina\n  Ruth":
#: the nineteenth set written blind)
_AFTER_A_WORD = regex.compile(r"(?<=\p{L}[ ]|\p{L}\n[ \t]+)\p{Lu}\p{Ll}{2,}")
_KIN_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(?P<kin>\p{L}+)(?:[ ]|\n[ \t]+)$")
#: What ends a name on the line after its kinship word: a bracket, punctuation, the line's end
#: ("sobrina\n  Ruth (655 910 337)").
_NEXT_LINE_NAME_END = regex.compile(r"[ \t]*(?:[(,;:.]|$)", regex.MULTILINE)
#: Someone else around the patient, then the name: "su amiga Rosa Bertomeu", "la vecina, Mari Luz,".
_OTHER_NAMED = regex.compile(
    r"(?<![\p{L}\p{N}])(?i:amig[oa]|amic|vecin[oa]|ve[íi]|ve[ïi]na|cuidador[a]?"
    r"|compañer[oa](?:[ ]de[ ](?:piso|trabajo))?)"
    r",?[ ](?P<name>\p{Lu}\p{Ll}+(?:[ ](?:(?:de|del|de[ ]la)[ ])?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?){0,3})"
    r"(?![\p{L}\p{N}])")
#: A role or a kinship word, then a given name in lower case: how a hurried note names staff and
#: family ("enf nieves vigila sat.", "R1 laura ve las analiticas", "hija mari carmen", "R mayor
#: sergio"; the sixteenth set written blind left all four in clear).
_LOWER_ROLE = regex.compile(
    r"(?<![\p{L}\p{N}])(?:(?P<clinician>(?i:enf|enfermer[oa]|aux|auxiliar|r[1-5]|r[ ]mayor|residente"
    # "dr"/"dra" in lower case or capitalised only: "DR severa" is a retinopathy
    r"|adjunt[oa]|mir|celador[a]?|matrona|fisio|tcae|supervisor[a]?|coordinador[a]?)|[Dd]ra?)"
    r"|(?i:(?P<kin>hij[oa]|mujer|marido|espos[oa]"
    r"|niet[oa]|herman[oa]|sobrin[oa]|nuera|yerno|cuñad[oa]|prim[oa]|t[íi][oa])|(?P<other>vecin[oa]|amig[oa]"
    r"|cuidador[a]?)))\.?[ \t]+(?P<name>\p{Ll}{3,}(?:[ ]\p{Ll}{3,}){0,2})(?![\p{L}\p{N}'’-])")
#: The roles of ``_LOWER_ROLE`` that are also abbreviations of something else ("enf" of
#: "enfermedad", "dr" of "derecho"): after them a word of the language is that, not a name
#: ("enf benigna de mama", "hemitorax dr claro").
_AMBIGUOUS_ROLES = frozenset({"enf", "dr", "dra"})
#: A given name in lower case, then its role in brackets ("anxo (mf) + noelia (enf)").
_LOWER_ROLE_AFTER = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<name>\p{Ll}{3,})[ \t]+\((?i:enf|mf|mfyc|mir|r[1-5]|aux|tcae|fisio|due"
    r"|m[ée]dic[oa]|enfermer[oa])\)")
#: A given name opening a line typed in lower case, a comma, then a nickname or an age ("emilio,
#: "o portugues", 84a, porqueira"): the patient a home-visit book lists.
_LOWER_LISTED = regex.compile(
    r"(?m)^[ \t]*(?P<name>\p{Ll}{3,}),[ \t]+(?:[\"«“(]|\d{1,3}[ ]?a(?:ños)?(?![\p{L}]))")
#: A phone number in brackets after a name ("la vecina remedios (988 45 33 71)").
_PHONE_AFTER = regex.compile(r"[ \t]*\([ \t]*\+?\d")
#: A field's colon right after a word ("Edat:", "Sexo :").
_FORM_KEY_AFTER = regex.compile(r"[ \t]?:")
#: The short forms that open a compound given name ("mari carmen", "mari luz"), no name alone.
_NAME_PREFIXES = frozenset({"mari", "maria", "jose", "juan", "ana", "luis"})
#: A signature in lower case: a given name and a surname at a line's start, then the role
#: ("pablo ballarin R2 MI, col. 222208137").
_LOWER_SIGNED = regex.compile(
    r"(?m)^[ \t]*(?P<name>\p{Ll}{3,}(?:[ ]\p{Ll}{3,}){1,3}),?[ \t]+"
    r"(?i:r[1-5]|mir|fea|adjunt[oa]|enf|enfermer[oa]|residente)(?![\p{L}])")
#: A civil record's parents: "hijo de Bartolomé y de Encarnación", "hija de Juan José y de María
#: del Carmen" (a line break anywhere between the words).
_PARENTS = regex.compile(
    r"(?<![\p{L}\p{N}])(?i:hij[oa])\s+de\s+(?P<father>\p{Lu}\p{Ll}+(?:\s(?:del?\s)?\p{Lu}\p{Ll}+)?)"
    r"\s+(?:y|e)\s+de\s+(?P<mother>\p{Lu}\p{Ll}+(?:\s(?:del?\s(?:la\s)?)?\p{Lu}\p{Ll}+)?)(?![\p{L}\p{N}])")
#: (A surname in it may be hyphenated: "Ingrid Bauer-Lohse" had stopped before "-Lohse".)
_KIN_NAME_AT = regex.compile(r"\p{Lu}\p{Ll}{2,}(?:[ ](?:(?:de|del|de[ ]la|y|i)[ ])?\p{Lu}\p{Ll}+"
                             r"(?:-\p{Lu}\p{Ll}+)*){0,2}(?![\p{L}\p{N}'’-])")
#: A name, a comma, and a kinship in apposition: "Iyán, el hijo de", "Lucía, la nieta del".
_KIN_APPOSED = regex.compile(
    r"(?<![\p{L}\p{N}.'’-])(?P<name>\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+){0,2})[ \t]*,[ \t]+(?:el|la|su)[ \t]+"
    r"(?P<kin>\p{Ll}+)[ \t]+(?:de|del)(?![\p{L}])")
#: An abbreviation right before a name: a title ("Dr. Ruiz", "Sra. Gil").
_ABBREVIATION_BEFORE = regex.compile(r"(?<![\p{L}])\p{L}{1,4}\.[ \t]*$")
#: The patient after "de" ("… el marido de la paciente"): the name before is a relative's.
_PATIENT_WORD = regex.compile(
    r"(?i)[ \t]+(?:la|el|l[oa]s)?[ \t]*(?:paciente|enferm[oa]|usuari[oa]|residente)\b")
#: Two spaces or a tab inside a name: the next column of a form ("Dra. Sofía Medina   Anestesista:").
_COLUMN_GAP = regex.compile(r"[ ]{2}|\t")
#: A kinship word and a name (a nickname) in quotation marks or brackets after it.
_KIN_QUOTED = regex.compile(r"(?<![\p{L}\p{N}])(?P<kin>\p{L}+),?[ ]+(?P<open>[\"“«(])"
                            r"(?P<name>\p{Lu}\p{Ll}{2,}(?:[ ]\p{Lu}\p{Ll}+)?)(?P<close>[\"”»)])")
_CLOSING = {'"': '"', "“": "”", "«": "»", "(": ")"}
#: A capitalised word after a comma or a coordinating "y"/"e"/"i": the next item of a list.
_LISTED = regex.compile(r"(?:,[ ]+(?:(?:y|e|i)[ ]+)?|(?<=[\p{L})])[ ](?:y|e|i)[ ]+)"
                        r"(?P<name>\p{Lu}\p{Ll}{2,})(?![\p{L}\p{N}'’-])")
#: What may stand between a listed person and the list's next name: an aside in brackets ("Sus
#: hijos, Thiago (8 años) y Valentina (5 años)", the fourteenth set written blind).
_ASIDE = regex.compile(r"[ ]?\([^()\n]{1,30}\)")
_LOWER_OR_TITLE = regex.compile(r"(?<![\p{L}\p{N}])\p{L}\p{Ll}+(?![\p{L}\p{N}])")
#: What says the next name is a partner's ("Casado con Mihaela", "viuda de Anselmo").
_PARTNER = regex.compile(r"(?<![\p{L}\p{N}])(?i:casad[oa][ ]con|se[ ]cas[óo][ ]con|cas[óo][ ]con"
                         r"|convive[ ]con|viud[oa][ ]de|divorciad[oa][ ]de|separad[oa][ ]de)[ ]"
                         r"(?=\p{Lu})")
#: A birth, then the child's name: "Nació un varón, Davi, de 2.140 g", "nace una niña (Lúa)".
_NEWBORN = regex.compile(r"(?i:naci[óo]|nace|naix|naceu)[ ](?i:un[ ]var[óo]n|una[ ]ni[ñn]a|un[ ]ni[ñn]o"
                         r"|una[ ]mujer|un[ ]hijo|una[ ]hija|un[ ]nen|una[ ]nena)[ ]*[,(][ ]*"
                         r"(?P<name>\p{Lu}\p{Ll}{2,})(?=[ ]*[,)])")  # in apposition: "varón, Apgar 9"
#: Three capitalised words: a given name and two surnames (hyphenated surnames whole).
_FULL_NAME = regex.compile(
    r"(?<![\p{L}\p{N}.'’-])(?P<given>\p{Lu}\p{Ll}+)[ ](?P<first>\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)"
    r"[ ](?P<second>\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)(?![\p{L}\p{N}'’-]|[ ]\p{Lu})")
#: A word before a name that makes it part of a longer one ("calle", "del", "San"); not "de":
#: "acompañada de Rosario Moreno Castillo" is a person.
_JOINING_BEFORE = regex.compile(r"(?i:\b(?:del|la|el|san|santa|sant|y|i|calle|c/|avda\.?))[ ]$")
#: A clinician's word before a name on its line.
_CLINICIAN_BEFORE = regex.compile(
    r"(?i:enfermer[oa]|m[ée]dic[oa]|doctor[a]?|\bdr[a]?\.|fisioterapeuta|trabajador[a]?[ ]social"
    r"|psic[óo]log[oa]|matrona|auxiliar|residente|adjunt[oa]|facultativ[oa]|gestor[a]?[ ]de[ ]casos)")
#: A clinician's role and, after it (a comma or a colon between), a name of two or three
#: capitalised words ("el fisioterapeuta Héctor Fumanal", "su enfermera, Olga Cosculluela").
_ROLE_NAMED = regex.compile(
    r"(?<![\p{L}])(?i:enfermer[oa]|fisioterapeuta|trabajador[a]?[ ]social|psic[óo]log[oa]|matrona"
    r"|logopeda|terapeuta[ ]ocupacional|auxiliar[ ]de[ ]enfermer[íi]a|gestor[a]?[ ]de[ ]casos"
    # a care home's staff ("La gerocultora Yésica Pascual oye un golpe": the seventeenth set)
    r"|gerocultor[a]?|celador[a]?|tcae|TCAE|t[ée]cnic[oa][ ](?:de|en)[ ](?:enfermer[íi]a|cuidados)[^ ,]*"
    # a ward's supervisor, a pharmacist, a nurse in Catalan or Galician (the nineteenth set written
    # blind: "a la supervisora Carmen Lago", "farmacèutica Núria Coma i Puig")
    r"|supervisor[a]?|farmac[ée]utic[oa]|farmac[èe]utic[a]?|infermer[a]|enfermeir[oa])"
    # "enfermera de práctica avanzada, Ainara Sagüés" (the eleventh set written blind)
    r"(?:[ ]de[ ]la[ ]unidad|[ ]de[ ]referencia|[ ]de[ ]enlace|[ ]de[ ]pr[áa]ctica[ ]avanzada"
    r"|[ ]de[ ]planta|[ ]de[ ]guardia|[ ]gestor[a]?)?[ \t]*[,:]?[ \t]+"
    # a given name alone too ("con la matrona Inés y el anestesista"), a Catalan "i" between
    # surnames ("Coma i Puig")
    r"(?P<name>\p{Lu}\p{Ll}+(?:[ ](?:i[ ])?\p{Lu}\p{Ll}+){0,2})(?![\p{L}\p{N}'’-])")
#: A name and its age after a comma ("Ibrahim, de 8 meses", "Aminata, de 5 años").
_AGED = regex.compile(
    r"(?<![\p{L}\p{N}.'’-])(?P<name>\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+){0,2})[ \t]*,[ \t]*(?:de[ \t]+)?"
    r"\d{1,3}[ \t]*(?:años|meses|días|semanas)(?![\p{L}])")
#: A nickname in quotation marks ("«Loli»", '"Curro"'), maybe after an opening parenthesis.
#: (The article inside the quotes stays outside the span: «el Chato».)
_NICKNAME = regex.compile(r"(?P<paren>\([ \t]*)?[«\"“](?:(?:el|la|El|La)[ ])?"
                       r"(?P<name>\p{Lu}(?:\p{Ll}+|\p{Lu}+)(?:[ ]\p{Lu}(?:\p{Ll}+|\p{Lu}+))?)[»\"”]")
#: What a nickname follows when no name stands before it ("Alias: «Tato»", "conocido como",
#: "prefiere que le llamen «Hans»", "refiere que «Fulgen» lleva…": the seventh set written blind).
_NICKNAME_CUE = regex.compile(
    r"(?i:(?<![\p{L}])(?:alias|apodo|apodad[oa]|mote|conocid[oa]s?(?:[ ]\p{L}+){0,4}"
    r"[ ]como|l[ea][ ]conoc(?:en|ían|emos)[ ]como"
    r"|l[ea][ ]llam(?:an|en|aban)|llamad[oa]|(?:refiere|cuenta|comenta|dice)[ ]que))[ \t]*:?[ \t]*$")
#: What a nickname is followed by when it says it is one ("varón de 66 años, «Txema» para familia y
#: amigos", "(«Suso», como prefiere que se le llame)": the eighth and ninth sets written blind).
_NICKNAME_AFTER = regex.compile(
    r"[»\"”][ \t]*,?[ \t]*(?i:para[ ](?:la[ ]|su[ ]|sus[ ])?(?:familia|amigos|allegados|conocidos|vecinos)"
    r"|como[ ](?:prefiere|le[ ]llaman|la[ ]llaman|le[ ]conocen|la[ ]conocen|le[ ]dicen|la[ ]dicen))")
#: A nickname of several words in quotation marks (a backslash before a quote, as an SQL dump
#: escapes it): "Rafa el de los pájaros", «la señora Visi», "en Miquelet des Forn" (the
#: seventeenth set written blind left seven such in clear).
_NICKNAME_PHRASE = regex.compile(
    r"(?P<paren>\([ \t]*)?\\?[«\"“](?P<name>\p{L}(?:[\p{L}'’.-]|\\(?=['’]))*"
    r"(?:[ ]\p{L}(?:[\p{L}'’.-]|\\(?=['’]))*){0,5})\\?[»\"”]"
    # a vCard's NICKNAME line ("NICKNAME:Lola la de la lonja")
    r"|(?m:^(?i:nickname)(?:;[^:\n]*)?:[ \t]*(?P<name>\p{L}[^\n;,]{0,60}?)[ \t\r]*$)")
#: What a nickname of several words follows: the cues of ``_NICKNAME_CUE`` that name a
#: nickname, not those before reported speech ("dice que «…»"); a vCard's NICKNAME field;
#: Catalan "li diuen"; "prefiere".
_PHRASE_CUE = regex.compile(
    r"(?i:(?<![\p{L}])(?:alias|apodo|apodad[oa]|mote|nickname|conocid[oa]s?(?:[ ]\p{L}+){0,4}"
    r"[ ]como|l[ea][ ]conoc(?:en|ían)(?:[ ]todos)?(?:[ ]como)?|l[ea][ ]llam(?:an|en|aban)"
    r"|li[ ]diuen|prefiere[ ]que[ ]l[ea][ ]llamen))[ \t]*[:(]?[ \t]*$")
#: What a nickname of several words looks like after a person's name: a capitalised word in it,
#: or an article opening it ("el Quintanareño", "a da ponte"); not a quotation ("no quiere comer").
_NICKNAME_SHAPE = regex.compile(r"(?:el|la|o|a|en|na)[ ]|.*\p{Lu}")
#: Between a person's name and a nickname after it: a comma, a bracket, spaces.
_BEFORE_NICKNAME = regex.compile(r"[ \t]*,?[ \t]*$")
#: Where a relative found after a kinship word comes from (``Span.source``).
KIN_SOURCE = "kin-name"


@dataclass(frozen=True)
class LoneNames:
    """The lone-name step of one pack, as plain data (a fold's candidates carry it from a
    worker process back to the point search): the pack's given names borne by at least
    ``min_bearers`` people and not ordinary words of its closed lists, its honorifics and
    kinship words (folded), its language, and the labels a lone name takes."""

    names: frozenset[str]  # folded
    honorifics: frozenset[str]
    kinship: frozenset[str]
    language: str
    patient: str
    relative: str | None
    #: folded title form -> the label of the person it heads (a clinician's title: the
    #: clinician's label; a courtesy one: the patient's)
    titles: tuple[tuple[str, str], ...] = ()
    surnames: frozenset[str] = frozenset()  # folded
    #: the kinship words of several people ("hijos", "hermanas"), folded: a list of names follows
    plural_kinship: frozenset[str] = frozenset()
    #: the label of someone else around the patient (a friend, a neighbour, a carer), if any
    other: str | None = None

    @classmethod
    def for_pack(cls, pack: LanguagePack | None, patient: str | None, relative: str | None,
                 clinician: str | None = None, other: str | None = None) -> LoneNames | None:
        """The step for ``pack``, or None: the pack does not ask for it (``lone_names`` in its
        manifest) or the scheme has no patient label."""
        if pack is None or not pack.lone_names or patient is None:
            return None
        names = common_given_names(pack, pack.lone_names["min_bearers"])
        titles = tuple(sorted(
            (form, clinician if h.role == "clinician" else patient)
            for form, h in pack.honorifics.items()
            if h.role in ("clinician", "courtesy") and (clinician or h.role != "clinician")
        ))
        surnames = frozenset(fold(e) for e in pack.table("surname").entries) if "surname" in pack.tables \
            else frozenset()
        plural = frozenset(fold(w) for w, term in pack.kinship.items() if term.plural)
        return cls(names, frozenset(pack.honorifics), frozenset(pack.kinship), pack.language, patient,
                   relative, titles, surnames, plural, other)

    def spans(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The lone given names of ``text`` that no span of ``spans`` touches, and the names
        after a title (``titled``)."""
        # each step sees the spans and what the steps before it found
        taken = Taken((s.start, s.end) for s in spans)
        found: list[Span] = self.titled(text, taken, spans)
        before = len(taken)  # the spans' ranges: ``found`` adds to them
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.role_named(text, taken, spans))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.aged(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.kin_named(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.kin_apposed(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.parents_named(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.others_named(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.listed(text, taken, [*spans, *found]))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.newborn(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.partner(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.nicknames(text, taken, spans))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.full_names(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.lower_case(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found.extend(self.lower_named(text, taken))
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        for m in _WORD.finditer(text):
            word = m.group()
            if fold(word) not in self.names:
                continue
            after = _AFTER.match(text, m.end())
            if after is None or (after["word"] in _CONTINUING and not _clitic(text, after)):
                continue
            if _ALLERGEN.match(text, m.end()):
                continue  # "IgE frente a Ara h 9": an allergen's name (genus, species, number)
            line = _line_before(text, m.start())
            before = _BEFORE.search(line)
            if before is None or (before["word"] or "") in _JOINING:
                continue
            # opening a sentence or a line a capital says nothing: "Dr. Guillermo" is the
            # tagger's (a clinician), "Segundo tiempo" a word
            opening = before["word"] is None and not before.group().startswith(",")
            if opening and ((before["stop"] and self._honorific(before["stop"])) or self._known(word)):
                continue
            if _touches(taken, m.start(), m.end()):
                continue
            label = self.relative if self.relative and self._after_kin(line) else self.patient
            found.append(Span(m.start(), m.end(), label, source=SOURCE))
        return found

    def lower_case(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """In a note or a line typed in lower case (a nursing handover: "hab 314. ahmed
        benjelloun, 54a"; a dictated report's lines), where a capital says nothing, a name of two
        or three words: a given name of the step's
        list and one or two surnames of the pack's table, none of them a word of the language,
        touching no detected span. Notes with capitals are left to the rest of the step."""
        if not self.surnames:
            return []
        lines = lower_case_lines(text)
        if not lines:
            return []
        found: list[Span] = []
        # overlapped: "paciente manuel outeiriño castro" is tried from "manuel" too
        for m in (m for start, end in lines for m in _LOWER_NAME.finditer(text, start, end, overlapped=True)):
            words = [m["given"].split()[0], *(w for w in (m["second"], m["third"]) if w)]
            if fold(words[0]) not in self.names:
                continue
            compound = " " in m["given"]
            if compound and fold(m["given"].split()[-1]) not in self.names | _DEVOTIONAL:
                continue  # "juan de dios", "maría del carmen" are given names; "maría de baza" is not
            # none a word of the language; or, in a dictated line, the first surname none ("paciente
            # manuel outeiriño castro": the twelfth set written blind; "manuel" and "castro" are
            # words to the lexicon); a compound given name says enough ("juan de dios ortega
            # quesada": the fourteenth set's dictation, "ortega" a bird to the lexicon)
            if not compound and any(self._known(w) for w in words) and (
                    (len(lines) == 1 and lines[0] == (0, len(text))) or self._known(words[1])):
                continue
            k = 2 if not m["third"] or fold(m["third"]) not in self.surnames else 3
            if fold(words[1]) not in self.surnames:
                continue
            end = m.end("second") if k == 2 else m.end("third")
            # a tagger's span inside the name ("ahmed" of "ahmed benjelloun") gives way to it
            touching = overlapping(taken, m.start(), end)
            inside = all(m.start() <= s and e <= end and (s, e) != (m.start(), end) for s, e in touching)
            if inside and not any(f.start < end and m.start() < f.end for f in found):
                found.append(Span(m.start(), end, self.patient, source=LOWER_SOURCE))
        return found

    def titled(self, text: str, taken: list[tuple[int, int]], spans: Sequence[Span] = ()) -> list[Span]:
        """A name after a title that no detected span touches: "informados por el Dr. Sainz a
        las 20:15" (the tagger, which finds every "Dr." name of MEDDOCAN dev, missed it in a
        nursing note). The first word must be a name of the pack's tables or a word its
        lexicon does not know ("Dr. En consulta" is no name); a number after a comma makes it
        a street ("Dr. Esquerdo, 46"), left to the tagger. Initials after a title are a name
        too ("Dr. J. M. R.").

        A name whose first word is a given name of the step's list takes the place of the
        tagger's spans of another kind inside it (``spans``): "Enfermera Nerea Plaza Oñate",
        whose "Plaza Oñate" the tagger read as a street (``TITLED_SOURCE``)."""
        titles = dict(self.titles)
        if not titles:
            return []
        people = self._people()
        found: list[Span] = []
        for m in titled_matches(text):
            label = titles.get(fold(m["title"]) + ".") if m["dot"] else None
            label = label or titles.get(fold(m["title"]))
            if label is None or _STREET_NUMBER.match(text, m.end("name")):
                continue
            if _FORM_KEY_AFTER.match(text, m.end("name")) and _COLUMN_GAP.search(
                    text, m.end("title"), m.start("name")):
                continue  # the next field's key past a form's gap ("Sexe: Dona   Edat: 83")
            first = m["name"].split()[0]
            key = fold(first)
            if not (key in self.names or key in self.surnames or not self._known(first)):
                continue
            if key in self.honorifics or key in self.kinship:
                continue
            start, end = m.start("name"), m.end("name")
            for part in _PARTICLE_WORD.finditer(text, start, end):
                # where the person works is no part of the name ("Dra. Casanovas de la Unidad de
                # Ventilación": the twelfth set written blind carried "Unidad" as a surname)
                word = fold(part["word"])
                if word not in self.surnames and word not in self.names and self._known(part["word"]):
                    end = part.start()
                    break
            if not _touches(taken, start, end):
                found.append(Span(start, end, label, source=SOURCE))
            elif key in self.names and _inside_only(
                    spans, start, end, people if _COLUMN_GAP.search(m["name"]) else people - {label}):
                # a street or a town the tagger read in the name, or a part of it under the
                # title's label ("la enfermera Iria Castro Novo" with "Castro" alone: "Iria" and
                # "Novo" were left in the output)
                found.append(Span(start, end, label, source=TITLED_SOURCE))
        clinician = titles.get("dr.") or titles.get("dr")
        for m in _TITLED_LOWER.finditer(text) if clinician and self.surnames else ():
            # a surname of the tables after "doctor" in lower case, whatever else the word means
            # ("sanguino"); a second one too ("doctora garcía lópez"). Over MEDDOCAN train+dev
            # no lower-case word after a title is one of the tables' surnames.
            if fold(m["first"]) not in self.surnames:
                continue
            if not text[m.start() : m.start("first")].rstrip().endswith((".", "doctor", "doctora")) and (
                    self._common(m["first"])):
                continue  # without its dot "dr" may be "derecho": "hemitorax dr claro"
            end = m.end("second") if m["second"] and fold(m["second"]) in self.surnames else m.end("first")
            if not _touches(taken, m.start("first"), end):
                found.append(Span(m.start("first"), end, clinician, source=SOURCE))
        for m in _TITLED_INITIALS.finditer(text):  # initials: "Dr. J. M. R."
            label = titles.get(fold(m["title"]) + ".") if m["dot"] else None
            label = label or titles.get(fold(m["title"]))
            if label is not None and not _touches(taken, m.start("name"), m.end("name")):
                found.append(Span(m.start("name"), m.end("name"), label, source=SOURCE))
        return found

    def role_named(self, text: str, taken: list[tuple[int, int]], spans: Sequence[Span] = ()) -> list[Span]:
        """A clinician named right after their role, a common given name of the tables and one
        or two capitalised words ("con el fisioterapeuta Héctor Fumanal", "por su enfermera,
        Olga Cosculluela,": the tenth set written blind left three such in clear): the
        clinician's. The tagger's spans inside the name give way to it ("Fumanal" alone)."""
        clinician = dict(self.titles).get("dr.") or dict(self.titles).get("dr")
        if not clinician:
            return []
        people = self._people()
        found: list[Span] = []
        for m in _ROLE_NAMED.finditer(text):
            start, end = m.span("name")
            words = [w for w in m["name"].split() if w != "i"]
            if fold(words[0]) not in self.names or any(
                    self._known(w) and fold(w) not in self.surnames for w in words[1:]):
                continue
            if len(words) == 1 and self._known(words[0]):
                continue  # one word: a given name that is no word of the language ("Inés"; not "Rosa")
            # a relative's span that took the role in ("matrona Nerea" as a relative, leaving
            # "Gil Urkiza": the tenth set, once the deidentify point moved) gives way to the name
            role = [s for s in spans if s.label == self.relative and s.start <= m.start() < s.end < end
                    and not any(fold(w) in self.kinship for w in text[s.start : m.start("name")].split())]
            tagged = [s for s in spans if s.start < end and start < s.end and s not in role]
            touching = [(s, e) for s, e in overlapping(taken, start, end)
                        if not any((s, e) == (r.start, r.end) for r in role)]
            if any(s.label in people for s in tagged) or len(touching) > len(tagged) or not all(
                    start <= s.start and s.end <= end for s in tagged):
                continue  # a person's span there, or a name found already, stays as it is
            # "la enfermera de la unidad, Meritxell Serracanta Vilanova" as a company and a town
            found.append(Span(start, end, clinician, source=TITLED_SOURCE if touching or role else SOURCE))
        return found

    def aged(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A name with its age in apposition, "Ibrahim, de 8 meses", "Aminata, de 5 años" (the
        tenth set written blind: a child named in a list of the family): a given name of the
        tables or a word the lexicon does not know, then capitalised words. A relative's after
        a kinship word on its line, else the patient's."""
        found: list[Span] = []
        for m in _AGED.finditer(text):
            start, end = m.span("name")
            words = m["name"].split()
            if not (fold(words[0]) in self.names or not self._known(words[0])) or not all(
                    fold(w) in self.names or fold(w) in self.surnames or not self._known(w)
                    for w in words[1:]):
                continue  # "Varón, de 45 años": a surname too, and a word first
            if (fold(words[0]) in self.honorifics or fold(words[0]) in self.kinship
                    or _touches(taken, start, end)):
                continue
            line = _line_before(text, start)
            label = self.relative if self.relative and self._after_kin(line) else self.patient
            found.append(Span(start, end, label, source=SOURCE))
        return found

    def full_names(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A full name the tagger missed: a common given name and two surnames of the pack's
        tables, capitalised, touching no span ("enfermera gestora de casos: Reyes Cabello
        Mármol, 955.62.81.40" — each word also a word of the language, which no other step
        takes alone). A clinician's when a clinician's word comes before it on its line."""
        if not self.surnames:
            return []
        clinician = dict(self.titles).get("dr.") or dict(self.titles).get("dr")
        found: list[Span] = []
        for m in _FULL_NAME.finditer(text):
            given, first, second = (fold(m[g]) for g in ("given", "first", "second"))
            if (given not in self.names or first not in self.surnames or second not in self.surnames
                    or _touches(taken, m.start(), m.end())
                    or _JOINING_BEFORE.search(text, max(0, m.start() - 6), m.start())):
                continue
            line = _line_before(text, m.start())
            label = clinician if clinician and _CLINICIAN_BEFORE.search(line) else self.patient
            found.append(Span(m.start(), m.end(), label, source=SOURCE))
        return found

    def _people(self) -> set[str]:
        """The labels of a person: the titles' labels, the patient's and the relative's."""
        return {label for label in (*dict(self.titles).values(), self.patient, self.relative) if label}

    def nicknames(self, text: str, taken: list[tuple[int, int]], spans: Sequence[Span]) -> list[Span]:
        """A nickname in quotation marks: after a person's name and an opening parenthesis
        ("MAQUEDA TOLEDO, DOLORES («Loli»)", "ZHOU LIN («LUCÍA»)": that person's label), or
        after "alias", "apodo", "conocido como" ("conocido en su pueblo como «Monchu»", the
        patient's). A span of another kind on it gives way ("Monchu" had become the town
        "Barcelona")."""
        people = self._people()
        found: list[Span] = []
        for m in _NICKNAME.finditer(text):
            start, end = m.span("name")
            label = None
            if m["paren"]:
                before = next((s for s in spans if s.end <= m.start() and
                               not text[s.end : m.start()].strip()), None)
                label = before.label if before is not None and before.label in people else None
            elif _NICKNAME_CUE.search(text, max(0, m.start() - 40), m.start()):
                label = self.patient
            if label is None and _NICKNAME_AFTER.match(text, m.end("name")):
                label = self.patient
            if label is None or fold(m["name"]) in self.honorifics or fold(m["name"]) in self.kinship:
                continue
            found.extend(_nickname_span(start, end, label, taken, spans, people))
        for m in _NICKNAME_PHRASE.finditer(text):  # several words: a cue, or the person just before
            start, end = m.span("name")
            if any(f.start < end and start < f.end for f in found) or any(c.isdigit() for c in m["name"]):
                continue
            at = m.start()
            before = next((s for s in spans if s.label in people and s.end <= at
                           and _BEFORE_NICKNAME.fullmatch(text, s.end, at)), None)
            cued = (text[at:start].lower().startswith("nickname")
                    or _PHRASE_CUE.search(text, max(0, at - 40), at))
            if before is not None and not _NICKNAME_SHAPE.match(m["name"]):
                before = None  # "su hija Marta Gómez, "no quiere comer nada"": what she said
            label = before.label if before is not None else self.patient if cued else None
            if label is None or fold(m["name"]) in self.kinship:
                continue
            found.extend(_nickname_span(start, end, label, taken, spans, people))
        return found

    def parents_named(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """The parents a civil record names by their given names ("hijo de Bartolomé y de
        Encarnación", a death certificate's; the line may break anywhere in it): the relatives'
        names, each a given name of the step's list. The fifteenth set written blind left the
        mother's in clear."""
        if not self.relative:
            return []
        found: list[Span] = []
        for m in _PARENTS.finditer(text):
            for group in ("father", "mother"):
                start, end = m.span(group)
                if fold(m[group].split()[0]) in self.names and not _touches(taken, start, end):
                    found.append(Span(start, end, self.relative, source=KIN_SOURCE))
        return found

    def others_named(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A friend, a neighbour or a carer named after the word that says so ("su amiga Rosa
        Bertomeu le ayudará", "la vecina, Mari Luz, la encontró"), a given name of the step's
        list first: someone else around the patient. The fifteenth set written blind left the
        friend in clear."""
        if not self.other:
            return []
        found: list[Span] = []
        for m in _OTHER_NAMED.finditer(text):
            start, end = m.span("name")
            if fold(m["name"].split()[0]) in self.names and not _touches(taken, start, end):
                found.append(Span(start, end, self.other, source=KIN_SOURCE))
        return found

    def lower_named(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A given name in lower case after a role or a kinship word ("enf nieves", "hija mari
        carmen"), with the given names and surnames of the tables that follow it: the
        clinician's, the relative's or someone else's. After a kinship word the first name must
        be no word of the language ("mujer blanca", "hermana sana": MEDDOCAN's only such pairs)."""
        clinician = dict(self.titles).get("dr.") or dict(self.titles).get("dr")
        found: list[Span] = []
        index = Ranges(taken)  # by bisection: a long note in lower case has thousands of both

        def touches(start: int, end: int) -> bool:  # ``_touches(taken, …)``: overlaps or abuts
            return bool(index.near(start - 1, end + 1))

        for m in _LOWER_ROLE.finditer(text):
            label = clinician if m["clinician"] else self.relative if m["kin"] else self.other
            words = m["name"].split()
            second = fold(words[1]) if len(words) > 1 else ""
            compound = fold(words[0]) in _NAME_PREFIXES and second in self.names  # "mari carmen"
            if label is None or not (fold(words[0]) in self.names or compound):
                continue
            strict = not m["clinician"] or fold(m["clinician"]) in _AMBIGUOUS_ROLES
            if strict and self._common(words[0]) and not (
                    second in self.surnames and not self._common(words[1])) and not (
                    len(words) == 1 and _PHONE_AFTER.match(text, m.end("name"))):
                continue  # "mujer blanca", "enf benigna"; but "hermana rosa garcía", "vecina remedios (988…"
            end = m.start("name") + len(words[0])
            for i, word in enumerate(words[1:], 1):  # "mari carmen", "pablo ballarin"
                key = fold(word)
                joined = fold(words[i - 1]) in _NAME_PREFIXES and key in self.names  # "mari carmen"
                named = key in self.names or key in self.surnames
                if not joined and (not named or self._common(word)):
                    break  # "enf laura cura la herida", "hija maria sola": a verb, a word
                end = text.index(word, end) + len(word)
            if not touches(m.start("name"), end):
                found.append(Span(m.start("name"), end, label, source=KIN_SOURCE))
        for m in _LOWER_ROLE_AFTER.finditer(text) if clinician else ():
            if fold(m["name"]) in self.names and not touches(*m.span("name")):
                found.append(Span(*m.span("name"), clinician, source=KIN_SOURCE))
        lines = lower_case_lines(text)
        for m in (m for start, end in lines for m in _LOWER_LISTED.finditer(text, start, end)):
            if fold(m["name"]) in self.names and not self._common(m["name"]) and not touches(
                    *m.span("name")):
                found.append(Span(*m.span("name"), self.patient, source=KIN_SOURCE))
        for m in _LOWER_SIGNED.finditer(text) if clinician else ():
            words = m["name"].split()
            if fold(words[0]) not in self.names or not all(
                    fold(w) in self.surnames or fold(w) in self.names for w in words[1:]):
                continue
            if not touches(*m.span("name")) and not _touches(
                    [(s.start, s.end) for s in found], *m.span("name")):
                found.append(Span(*m.span("name"), clinician, source=KIN_SOURCE))
        return found

    def kin_apposed(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A name that a kinship in apposition after it describes: "Es Iker, el hijo de Marta
        Montes, enfermera de la 3ª planta" (a clinical session's slides, the eighteenth set
        written blind). Its first word a given name of the tables ("Luego, el hijo de…",
        "Hospital, el hermano de…", a drug's "Sintrom, la hija de…" stay; the set's "Iyán" is in
        no table), the others given names, surnames or no word of the language, touching no span. A relative's
        when the kinship is the patient's ("Pedro, el marido de la paciente"), else the
        patient's."""
        found: list[Span] = []
        for m in _KIN_APPOSED.finditer(text):
            if fold(m["kin"]) not in self.kinship:
                continue
            start, end = m.span("name")
            words = m["name"].split()
            while words and fold(words[0]) not in self.names:
                # "Es Iker, el hijo de": the verb before is no name; a surname that is a word
                # ("Hospital") neither, first, nor a word no dictionary knows ("Sintrom, la hija
                # de la paciente lo administra": a drug, the round's review)
                start += len(words[0]) + 1
                words = words[1:]
            if not words or not all(self._name_word(w) for w in words[1:]):
                continue
            if (any(fold(w) in self.honorifics or fold(w) in self.kinship for w in words)
                    or _touches(taken, start, end)
                    or _ABBREVIATION_BEFORE.search(text, max(0, start - 8), start)):
                continue  # "Dr. Ruiz, el hijo de Ana": the title's
            label = self.relative if self.relative and _PATIENT_WORD.match(text, m.end()) else self.patient
            found.append(Span(start, end, label, source=SOURCE))
        return found

    def _name_word(self, word: str) -> bool:
        """A given name or a surname of the tables, or no word of the language."""
        return fold(word) in self.names or fold(word) in self.surnames or not self._known(word)

    def kin_named(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A relative named after a kinship word that no detected span names ("Contacto: esposa
        Sabine Brenner, móvil …", "su sobrina Inmaculada Carmona Ruz": the tagger found neither
        in notes written blind). The first word must be a given name of the step's list or a
        word the lexicon does not know ("hermano Mayor" is no name); the span holds the kinship
        word too, as MEDDOCAN writes "hermano Ramon", unless a span holds it already."""
        if not self.relative:
            return []
        found: list[Span] = []
        for after in _AFTER_A_WORD.finditer(text):
            kin = _KIN_BEFORE.search(text, max(0, after.start() - 16), after.start())
            if kin is None or fold(kin["kin"]) not in self.kinship or kin["kin"].isupper():
                continue
            name = _KIN_NAME_AT.match(text, after.start())
            if name is None:
                continue
            first = after.group()
            key = fold(first)
            if key in self.kinship or key in self.honorifics or not (
                    key in self.names or not self._known(first)):
                continue
            name_start, name_end = name.start(), name.end()
            if "\n" in text[kin.end("kin") : name_start] and not _NEXT_LINE_NAME_END.match(text, name_end):
                continue  # on the next line the name stands alone: "Dolores de espalda…" is prose
            inside = overlapping(taken, name_start, name_end)
            # a span reaching out of the name: the tagger's reading stands — unless it is the
            # kinship word with the first name ("sobrina Inmaculada" of "su sobrina Inmaculada
            # Carmona Ruz", whose surnames then leaked), which the whole name takes in
            if any((s < name_start and s != kin.start("kin")) or e > name_end for s, e in inside):
                continue
            if inside and all(s == name_start and e == name_end for s, e in inside):
                continue  # found already
            start = name_start if (_touches(taken, kin.start("kin"), kin.end("kin"))
                                   or "\n" in text[kin.end("kin") : name_start]) else kin.start("kin")
            if any(s == kin.start("kin") for s, _ in inside):
                start = kin.start("kin")  # "sobrina Inmaculada" inside "sobrina Inmaculada Carmona Ruz"
            # spans inside the name ("Carmona" of "Inmaculada Carmona Ruz" as a town) give way to it
            found.append(Span(start, name_end, self.relative, source=KIN_SOURCE))
        for m in _KIN_QUOTED.finditer(text):  # 'su hermano, "Chema", se hizo cargo'
            if fold(m["kin"]) not in self.kinship or m["kin"].isupper():
                continue
            if _CLOSING.get(m["open"]) != m["close"]:
                continue
            first = m["name"].split()[0]
            key = fold(first)
            if key in self.kinship or key in self.honorifics or not (
                    key in self.names or not self._known(first)):
                continue
            if not _touches(taken, m.start("name"), m.end("name")):
                found.append(Span(m.start("name"), m.end("name"), self.relative, source=KIN_SOURCE))
        return found

    def listed(self, text: str, taken: list[tuple[int, int]], spans: Sequence[Span]) -> list[Span]:
        """The given names listed after a person's: right after one ("Acude con Marta y Lucía":
        the same label), or in a sentence that a kinship word of several people opens, after a
        person named in it ("Hijos: Iago, marinero en un arrastrero, y Uxía, fisioterapeuta": a
        relative). The tagger found Marta and Iago, and the name after "y" — else left alone, as
        the end of a longer one — stayed in clear. The name must be a given name of the step's
        list."""
        people = {self.patient, *(label for _, label in self.titles)}
        if self.relative:
            people.add(self.relative)
        persons = sorted((s.start, s.end, s.label) for s in spans if s.label in people)
        if not persons:
            return []
        found: list[Span] = []
        for m in _LISTED.finditer(text):
            start, end = m.span("name")
            if fold(m["name"]) not in self.names or _touches(taken, start, end):
                continue
            before = [p for p in persons if p[1] <= m.start()]
            if before and (before[-1][1] == m.start() or _ASIDE.fullmatch(text, before[-1][1], m.start())):
                # right after a person, or after an aside about them: the list goes on
                found.append(Span(start, end, before[-1][2], source=KIN_SOURCE))
                insort(persons, (start, end, before[-1][2]))  # "Marta, Lucía y Sara"
                continue
            if not self.relative or not self.plural_kinship:
                continue
            opening = max(text.rfind(stop, 0, start) for stop in (".", "\n", ";")) + 1
            kin = [w.end() for w in _LOWER_OR_TITLE.finditer(text, opening, start)
                   if fold(w.group()) in self.plural_kinship]
            if kin and any(kin[0] <= p[0] for p in before):
                found.append(Span(start, end, self.relative, source=KIN_SOURCE))
        return found

    def partner(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A partner named after the word that says so ("Casado con Mihaela; hijos Andrei y
        Daria", "viuda de Anselmo Ruiz", "convive con Nazia Bibi"): no kinship word before the
        name, so ``kin_named`` cannot tell; the first word a given name of the step's list or a
        word the lexicon does not know."""
        if not self.relative:
            return []
        found: list[Span] = []
        for m in _PARTNER.finditer(text):
            name = _KIN_NAME_AT.match(text, m.end())
            if name is None:
                continue
            first = name.group().split()[0]
            key = fold(first)
            if key in self.kinship or key in self.honorifics:
                continue
            if not (key in self.names or not self._known(first)):
                continue
            start, end = name.span()
            inside = touching_ranges(taken, start, end)
            # a tagger's span inside the name gives way to it ("casado con Luz Dary Ospina" with
            # "Ospina" alone found: the given names had stayed in clear); one reaching out stands
            if all(start <= s and e <= end for s, e in inside) and (start, end) not in inside:
                found.append(Span(start, end, self.relative, source=KIN_SOURCE))
        return found

    def newborn(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """The name given right after a birth ("Nació un varón, Davi, de 2.140 g"): the patient's
        child. A given name of the step's list or a word the lexicon does not know."""
        if not self.relative:
            return []
        found: list[Span] = []
        for m in _NEWBORN.finditer(text):
            start, end = m.span("name")
            key = fold(m["name"])
            if key in self.kinship or _touches(taken, start, end):
                continue
            if key in self.names or not self._known(m["name"]):
                found.append(Span(start, end, self.relative, source=KIN_SOURCE))
        return found

    def _common(self, word: str) -> bool:
        """A word of the language, not only a proper noun's ("blanca", "sana"; not "javier")."""
        from .lexicon import lexicon

        try:
            return lexicon().is_common(word.lower(), self.language)
        except ValueError:
            return True

    def _known(self, word: str) -> bool:
        """An ordinary word of the language, as far as its lexicon tells (a language simplemma
        lacks: every word counts as known, so no sentence-opening word is taken)."""
        from .lexicon import lexicon

        try:
            return lexicon().is_known(word.lower(), self.language)
        except ValueError:
            return True

    def _honorific(self, word: str) -> bool:
        return fold(word) in self.honorifics or fold(word.rstrip(".")) in self.honorifics

    def _after_kin(self, line: str) -> bool:
        words = regex.findall(r"\p{L}+", line)[-_KIN_WINDOW:]
        return any(fold(w) in self.kinship for w in words)


@lru_cache(maxsize=4)
def typed_in_lower_case(text: str) -> bool:
    """Is the note typed in lower case (fewer than 2 % of its letters capitals, forty letters
    at least)? There a capital says nothing of a name. Asked by several steps of one note: the
    answer is kept for the last few texts."""
    most = len(text) * _FEW_CAPITALS  # the letters are fewer than the characters
    capitals = 0
    for _ in _CAPITAL.finditer(text):  # most notes have too many capitals: stop early
        capitals += 1
        if capitals > most:
            return False
    letters = len(_NOT_LETTERS.sub("", text))
    return letters >= 40 and capitals <= letters * _FEW_CAPITALS


@lru_cache(maxsize=4)
def lower_case_lines(text: str) -> tuple[tuple[int, int], ...]:
    """The (start, end) of the lines of ``text`` typed in lower case — no capital but inside a
    code, forty letters at least — or the whole text when it is: where a capital says nothing
    of a name."""
    if typed_in_lower_case(text):
        return ((0, len(text)),)
    return tuple(m.span() for m in _LONG_LINE.finditer(text)
                 if not _CAPITAL.search(_CODE.sub("", m.group())) and typed_in_lower_case(m.group().lower()))


def _line_before(text: str, at: int) -> str:
    """What precedes ``at`` on its line (80 characters at most); at a line's start, the end of
    the line before when the sentence runs on over the break ("Su nuera\nPatricia le ayuda":
    the line before ends in a lower-case letter, no stop)."""
    start = text.rfind("\n", 0, at) + 1
    line = text[start:at]
    if not line.strip() and start > 0:
        end = start - 1
        previous = text[text.rfind("\n", 0, end) + 1 : end].rstrip("\r")
        if previous[-1:].isalpha() and previous[-1:].islower():
            line = previous + " "
    return line[-80:]


def _clitic(text: str, after: regex.Match[str]) -> bool:
    """Is the article after the name a pronoun before a verb ("Beatriz la acompaña"), or past
    a comma ("Raúl, la amenazó"), rather than the middle of a longer name ("Rosa la Roja")?"""
    if after["word"] not in _PRONOUNS:
        return False
    return "," in after.group() or _LOWER_NEXT.match(text, after.end()) is not None


def with_lone_names(text: str, spans: Iterable[Span], step: LoneNames | None) -> list[Span]:
    """``spans`` and the lone names ``step`` finds beside them, sorted by offset."""
    spans = list(spans)
    if step is None:
        return spans
    found = step.spans(text, spans)
    lower = [(s.start, s.end) for s in found if s.source in (LOWER_SOURCE, KIN_SOURCE, TITLED_SOURCE)]
    if lower:  # "ahmed" of "ahmed benjelloun" gives way to the whole name, "Carmona" to "Inmaculada
        # Carmona Ruz" after "sobrina"; a relative's span that took a clinician's role in with
        # the given name ("matrona Nerea") to the clinician's whole name
        index = Ranges(lower)  # by bisection: a long note in lower case has thousands of each
        spans = [s for s in spans
                 if not any(a <= s.start and s.end <= b for a, b in index.near(s.start, s.end))
                 and not (s.label == step.relative
                          and any(s.start < a < s.end < b for a, b in index.near(s.start, s.end)))]
    return sorted([*spans, *found], key=lambda s: (s.start, s.end, s.label))


def common_given_names(pack: LanguagePack, least: int) -> frozenset[str]:
    """The pack's one-word given names borne by at least ``least`` people and not ordinary
    words of its closed lists, folded."""

    def build() -> Iterator[str]:
        # the counts first: a tenth of the 54,000 Spanish names pass, and only they are folded
        table = pack.table("given_name")
        males = table.column("male") if "male" in table.columns else [None] * len(table)
        females = table.column("female") if "female" in table.columns else [None] * len(table)
        borne = [name for name, m, f in zip(table.column("name"), males, females, strict=True)
                 if _count(m) + _count(f) >= least]
        return (fold(name) for name in borne if " " not in name and not _ordinary(pack, name))

    return pack_set(pack, f"common-given|least={least}", build, (sys.modules[__name__], langpack))


def _ordinary(pack: LanguagePack, word: str) -> bool:
    """A word of the pack's closed lists: a stop-listed name, a title, a month, a kinship word."""
    return (pack.is_stopword(word) or pack.honorific(word) is not None
            or pack.month(word, regional=False) is not None
            or pack.kinship_term(word) is not None)


def _count(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0


def titled_matches(text: str) -> Iterator[regex.Match[str]]:
    """The matches of ``_TITLED.finditer(text)``, found from the spaces before a capitalised
    word: the word before them (a title is at most nine letters and a dot) is tried alone."""
    for gap in _NAME_AHEAD.finditer(text):
        end = gap.start()
        if end and text[end - 1] == ".":
            end -= 1
        start = end
        while start and end - start < 10 and text[start - 1].isalpha():  # isalpha: \p{L}
            start -= 1
        if start < end:
            m = _TITLED.match(text, start)
            if m is not None and m.end() == gap.start():
                yield m


def _inside_only(spans: Sequence[Span], start: int, end: int, people: set[str]) -> bool:
    """Do the spans touching [start, end) lie inside it, none of them with a label of
    ``people`` (a street or a town the tagger read in a name), and are there any?"""
    touching = [s for s in spans if s.start <= end and start <= s.end]
    return bool(touching) and all(
        start <= s.start and s.end <= end and s.label not in people and s.start < s.end
        for s in touching)


def _nickname_span(start: int, end: int, label: str, taken: list[tuple[int, int]], spans: Sequence[Span],
                   people: set[str]) -> list[Span]:
    """The nickname's span where no detected span touches it, or over spans of another kind
    inside it (the town "Barcelona" the tagger read in "Monchu"); none over a person's."""
    inside = [s for s in spans if s.start < end and start < s.end]
    if not _touches(taken, start, end):
        return [Span(start, end, label, source=SOURCE)]
    if inside and all(start <= s.start and s.end <= end and s.label not in people for s in inside):
        return [Span(start, end, label, source=TITLED_SOURCE)]
    return []


def _touches(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    """Does a taken range overlap or abut [start, end) (a name part next to a detected name)?"""
    return bool(touching_ranges(taken, start, end))
