"""A town or country named after "en" or "a" in the narrative is a place.

MEDDOCAN's notes name places in their headers and addresses; in running text seldom ("residente
en Mérida", "ha llegado a Barcelona": 5 times in 750 notes), and the tagger learnt little of
it. Notes of other hospitals say it all the time: "Vive en Getafe con su marido", "problema de
vivienda en Alcorcón" — both left in clear by the tagger, each a leak.

The shape is telling: after the preposition "en", "a", "desde", "hasta" or "hacia" (never "de":
"síndrome de Tolosa-Hunt", "criterios de El Escorial", "Universidad de Granada" are names of
other things), a capitalised name that the pack's tables hold as a municipality of at least
``min_population`` people, a province, a region or a country, whole (not followed by a hyphen
or another capitalised word: "en Santiago Apóstol" is not Santiago), touching no detected span.
Over MEDDOCAN train+dev, beside the embedded model's spans, it adds one ("su vuelta a España").

The same step takes an address named after its street type (the pack's ``street_types``, less
the ones that are ordinary words: "vía", "camino", "parque"…): the type, a capitalised name of
up to four words, and the number, floor and door if written ("C/ Real, 45 - 1º" heading a
letter, "en la calle Corrida" in a forensic report) — where the scheme has a street label and
no detected span touches it. The pack switches the step on (``lone_places`` in its
``pack.yaml``).

Notes written blind (tests/fixtures/es_blind) added: places after "natural de", "vecino de",
"procedente de" (and the pack's foreign cities); a town named with its country in parentheses
("nacido en Tánger (Marruecos)"); the places an address goes on with after a detected postal
code, town, street or facility (``chained``); a hospital called by the proper part of its name
("intervenida en el Morales Meseguer", ``hospitals``); notes in capitals ("VIVE EN TALAVERA DE LA
REINA", where a tagger's "LA REINA" gives way to the whole town).

The sixth set added: places near which something happened or where one works ("un pinar cercano
a Maceda", "un restaurante de Getaria"), and the islands the pack lists for its pseudonymiser
(``islands`` in its ``surrogates.yaml``: "se trasladó a Tenerife"), which no table of places holds.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import regex

from .langpack import LanguagePack, fold
from .lone_names import lower_case_lines, typed_in_lower_case
from .span_form import bilingual_parts, con_acronyms, folded_entries
from .taken import Taken, overlapping, own
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "lone-place"
STREET_SOURCE = "lone-street"
#: The prepositions a place follows in the narrative.
_PREPOSITIONS = frozenset({"en", "a", "desde", "hasta", "hacia", "sentido", "dirección"})
#: An address field's value up to its first comma, a name and a house number after it
#: ("Domicilio habitual: Lindenthalgürtel 114, 50935 Köln"; Catalan "Adreça", Basque "Helbidea").
_ADDRESS_FIELD = regex.compile(
    r"(?m)^[ \t]*(?i:domicilio(?:[ \t]+(?:habitual|actual|familiar))?|direcci[óo]n|adre[çc]a|helbidea)"
    r"[ \t]*:[ \t]*(?P<street>\p{L}[^,\n:]*?[ \t]\d{1,4}[a-zA-Z]?)(?=[ \t]*(?:,|\.?[ \t]*$))")
#: Words that make a "de" introduce a place: where one was born, lives or comes from ("natural
#: de La Unión", "vecina de Sopela", "procedente de Nador").
_ORIGIN_WORDS = r"(?:natural|vecin[oa]s?|procedentes?|originari[oa]s?|oriund[oa]s?)"
_ORIGIN = _ORIGIN_WORDS + r"[ \t]+de"
#: A capitalised name of up to five words, Spanish and Galician particles between.
#: A hyphened name is one word ("Gernika-Lumo", "Amorebieta-Etxano": the thirteenth set written
#: blind).
_PLACE_NAME = (r"(?P<name>\p{Lu}[\p{L}’']*(?:-\p{Lu}[\p{L}’']*)*"
               r"(?:[ \t]+(?:(?i:de|del|la|las|los|el|do|da|dos|das)[ \t]+)?"
               r"\p{Lu}[\p{L}’']*(?:-\p{Lu}[\p{L}’']*)*){0,4})")
#: A preposition, then a capitalised name of up to five words (particles between).
_CANDIDATE = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}])(?P<prep>(?i:{_ORIGIN}|"
    rf"{'|'.join(sorted(_PREPOSITIONS, key=len, reverse=True))}))[ \t]*(?:\r?\n)?[ \t]*(?<=[ \t\n])"
    # (a line may break after the preposition: "continuar en autobús hasta\nSantiago de Compostela")
    + _PLACE_NAME
)
#: An elided article or preposition glued to a capitalised name of up to five words, Catalan's
#: particles between ("d'Olot", "l'Hospitalet de Llobregat", "l'Ametlla de Mar").
_ELIDED = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<art>[lLdD])['’](?P<name>\p{Lu}[\p{L}\p{M}]*"
    r"(?:[ \t]+(?:(?:de|del|i|la|les|el)[ \t]+|(?:d|l)['’])?\p{Lu}[\p{L}\p{M}]*){0,4})")
#: A health centre's or a hospital's short form in lower case, then a town's name ("cs xinzo",
#: "pac xinzo", "hosp. jaca", "centro de salud de baltar").
_LOWER_FACILITY = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<kind>cs|c\.[ ]?s\.|pac|cap|centro[ ]de[ ]salud(?:[ ]de)?"
    r"|hosp\.?|hospital(?:[ ]de)?)"
    r"[ \t]+(?P<name>\p{Ll}[\p{Ll}'’-]+)(?![\p{L}\p{N}])")
#: Two to five capitalised names joined by dashes: a route ("Palma–Doha–Manila").
_ROUTE = regex.compile(
    r"(?<![\p{L}\p{N}–—-])\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+)?"
    r"(?:(?:[–—]|[ ][–—-][ ]|-)\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+)?){1,4}"
    r"(?![\p{L}\p{N}]|[–—-]\p{L})")
_ROUTE_PART = regex.compile(r"\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+)?")
#: Where one lives, was born or comes from: after these a town of any population is one
#: ("residente en Comillas desde 2016": 4,000 people, under the step's threshold; "sus padres
#: son de Lekunberri").
_RESIDENT = regex.compile(
    r"(?<![\p{L}\p{N}])(?i:resid(?:e|en|ía|ente|entes)[ \t]+en"
    r"|viv(?:e|en|ía|ió)(?:[ \t]+sol[oa]s?)?[ \t]+en|cerca[ \t]+de"
    r"|domiciliad[oa]s?[ \t]+en|empadronad[oa]s?[ \t]+en|nacid[oa]s?[ \t]+en"
    r"|(?:es|son|era|eran)[ \t]+(?:originari[oa]s?[ \t]+)?de|originari[oa]s?[ \t]+de"
    # near where, or where one works (the sixth set written blind: "un pinar cercano a Maceda",
    # "a la altura de Cartaya", "cocinera en un restaurante de Getaria")
    r"|cercan[oa]s?[ \t]+a|pr[óo]xim[oa]s?[ \t]+a|a[ \t]+la[ \t]+altura[ \t]+de"
    r"|(?:empresa|restaurante|hotel|bar|tienda|granja|finca|f[áa]brica|taller|cantera|mina)[ \t]+de"
    # where one comes from to the bedside ("El hermano, Pachi, llega desde Foz": the twelfth set)
    r"|lleg(?:a|an|ó|aron|aba|aban|ará|arán)[ \t]+desde|vien(?:e|en)[ \t]+desde|ven[íi]an?[ \t]+desde)[ \t]+"
    + _PLACE_NAME
)
#: Where one was born or comes from, then a capitalised name of one or two words, maybe after
#: its kind ("natural de Nador", "originario de la región de Kolda").
_BORN_IN = regex.compile(
    r"(?<![\p{L}\p{N}])(?:(?i:natural|originari[oa]s?|oriund[oa]s?|nacid[oa]s?)[ \t]+(?i:de|en)"
    # a neighbour of a hamlet no table holds ("vecino de Ferreirola": the eighth set)
    r"|(?i:vecin[oa]s?)[ \t]+de"
    # where one lives (the seventh set written blind: "reside en Corralejo desde 2009", "su hija,
    # que vive en Kiel")
    r"|(?i:resid(?:e|en|ía|ían|ente|entes)|viv(?:e|en|ía|ían|ió)(?:[ \t]+sol[oa]s?)?"
    r"|afincad[oa]s?|domiciliad[oa]s?|empadronad[oa]s?"
    # one's home ("Su vivienda en Todoque quedó sepultada por la lava": the ninth set)
    r"|(?:su|sus|la|una)[ ](?:vivienda|casa|domicilio|piso)(?:[ ]familiar)?)[ \t]+en"
    # where something happened on a road, a village no table holds ("En ruta, a la altura de
    # Cadavedo": the eleventh set written blind)
    r"|(?i:a[ \t]+la[ \t]+altura)[ \t]+de"
    # where a road accident happened ("en la carretera N-234, término municipal de Cella": the
    # fifteenth set written blind)
    r"|(?i:t[ée]rmino[ \t]+municipal|municipio)[ \t]+de"
    # a header field whose value is a place: a parish, a council ("Parroquia: Barcia",
    # "Conceyu: Valdés" in Asturian), a village
    r"|(?P<field>(?m:^)[ \t]*(?i:parroquia|parr[òo]quia|concejo|conceyu|concello|pedan[íi]a|aldea"
    r"|comarca|localidad|poblaci[óo]n|poblaci[óo]|municipio|lugar[ ]de[ ]nacimiento)[ \t]*:"
    # (a form's field after a column gap too: "C.P.: 47100     Localidad: Tordesillas", the
    # fifteenth set)
    r"|(?<=[ \t]{2})(?i:parroquia|parr[òo]quia|concejo|conceyu|concello|pedan[íi]a|aldea|comarca"
    r"|localidad|poblaci[óo]n|municipio)[ \t]*:))"
    # a line may break between the cue and the place ("natural de\nCochabamba (Bolivia)")
    r"(?:[ \t]+|[ \t]*\n[ \t]*)"
    r"(?:(?i:la[ ]región|la[ ]provincia|la[ ]comarca|la[ ]ciudad|el[ ]pueblo|la[ ]aldea)[ \t]+de[ \t]+)?"
    r"(?P<name>\p{Lu}\p{Ll}+(?:[ ]\p{Lu}\p{Ll}+)?)(?![\p{L}\p{N}'’-])"
    # the whole name, not its first words ("Vive en Villanueva del Pardillo Alto"); a column's
    # gap is no space inside a name ("Parroquia: Barcia          Conceyu: Valdés")
    r"(?![ \t](?:(?:de|del|de[ ]la|de[ ]las|de[ ]los)[ \t]+)?\p{Lu})")
#: A place after a common noun, maybe an adjective, and "de": where a thing is or comes from ("una
#: clínica privada de Tetuán", "la tonelería familiar de Ribadavia": the eighth set written
#: blind). Over MEDDOCAN train+dev 13 of 14 such names of the tables are annotated places; the
#: one that is not, criteria named after a town ("criterios revisados de El Escorial"), is what
#: ``_NAMED_AFTER`` keeps out. Read from its "de" (tried at every "de" before a capital): the noun
#: and maybe an adjective before it, the place after it; one pattern tried at every lower-case
#: word cost five times as much.
_OF_AT = regex.compile(r"[ \t]de[ \t]+(?=\p{Lu})")
_HEAD_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(?P<head>\p{Ll}+)(?:[ \t]+(?P<adjective>\p{Ll}+))?$")
_NAME_AFTER_DE = regex.compile(
    r"(?P<name>\p{Lu}\p{Ll}+(?:[’']\p{L}+)?(?:[ ](?:(?:de|del|la|el)[ ])?\p{Lu}\p{Ll}+){0,2})"
    r"(?![\p{L}\p{N}'’-])(?![ \t]+(?:(?:de|del|de[ ]la|de[ ]las|de[ ]los)[ \t]+)?\p{Lu})")
#: Nouns a town names a thing after, not where it is: criteria, scales, diseases, agreements
#: ("criterios de Roma", "clasificación de Los Ángeles", "fiebre de Malta", "escala de Glasgow",
#: "declaración de Helsinki", "gripe de Hong Kong").
_NAMED_AFTER = frozenset({
    "criterio", "criterios", "clasificación", "clasificaciones", "escala", "escalas", "síndrome",
    "enfermedad", "signo", "maniobra", "test", "prueba", "índice", "score", "regla", "reglas",
    "consenso", "declaración", "protocolo", "técnica", "método", "tipo", "variante", "cepa",
    "gripe", "fiebre", "virus", "grado", "estadio", "sistema", "puntuación", "algoritmo", "guía",
    "guías", "recomendaciones", "modelo", "cuestionario", "fórmula", "acuerdo", "acuerdos",
    "conferencia", "convención", "congreso", "reunión", "grupo", "estudio", "ensayo", "cohorte",
    "registro", "nomograma", "esquema", "pauta", "régimen", "vacuna", "bacilo", "agar", "solución",
    "estadificación", "definición", "definiciones", "tabla", "tablas", "curva", "curvas",
    "carta", "código", "tratado", "proceso", "juicio", "caso", "fenómeno", "efecto", "paradoja",
    # anatomy and signs named after a person whose name is also a town's ("joroba de Hampton")
    "joroba", "nódulo", "nódulos", "triángulo", "conducto", "ligamento", "músculo", "arteria",
    "vena", "nervio", "ganglio", "fosa", "línea", "líneas", "punto", "puntos", "ley", "reflejo",
    "quiste", "úlcera", "tumor", "fractura", "luxación", "hernia", "cuerpo", "cuerpos", "célula",
    "células", "cápsula", "membrana", "placa", "placas", "canal", "anillo", "asa", "círculo",
    "polígono", "bolsa", "espacio", "pólipo", "pólipos", "cirugía", "operación", "intervención",
    "incisión", "abordaje", "colgajo", "sonda", "tubo", "catéter", "férula", "aguja", "pinza",
})
#: The same, in a note typed in lower case: one lower-case word (the words after it are the
#: sentence's, not more of the name).
_LOWER_CANDIDATE = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}])(?P<prep>(?:{_ORIGIN}|en|a|de|desde|hasta|hacia))[ \t]+"
    r"(?P<name>\p{Ll}[\p{L}’']*)(?![\p{L}\p{N}])"
)
#: Where a hospital called by its proper name comes from (``Span.source``).
HOSPITAL_SOURCE = "hospital-name"
#: What a hospital called by its proper name follows: "el", "del", "al", "de", "en", "la" or "("
#: ("la consulta de dispositivos de Son Espases": the eighth set written blind).
_BEFORE_HOSPITAL = regex.compile(r"(?:(?<![\p{L}\p{N}])(?:del|al|el|de|en|la)[ \t]+|\()(?=\p{Lu})")
_FIRST_WORD = regex.compile(r"[^\s(),.;:]+")
_WORD_GOES_ON = regex.compile(r"[\p{L}\p{N}]")
#: Where an organisation of the pack's list comes from (``Span.source``).
ORGANISATION_SOURCE = "organisation-name"
#: Kinds of the organisation list a note's mention of is not PHI (MEDDOCAN: device makers).
_NOT_NAMED = frozenset({"manufacturer"})
#: A word that starts with a capital, not inside another word.
_CAPITAL_WORD = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}[^\s(),.;:]*")
#: Where a place chained to an address comes from (``Span.source``).
CHAIN_SOURCE = "address-place"
_NAME = (r"(?P<name>\p{Lu}[\p{L}’']*(?:-\p{Lu}[\p{L}’']*)*"  # "Escaldes-Engordany"
         r"(?:[ \t]+(?:(?:de|del|la|las|los|el|d’|d')[ \t]*)?\p{Lu}[\p{L}’']*(?:-\p{Lu}[\p{L}’']*)*){0,4})")
#: After a postal code: the town ("35110 Vecindario").
_AFTER_CODE = regex.compile(r"[ \t]+" + _NAME)
#: A place joined to the one before it: "y", "e", "o", "u", "ni" or a comma ("Irlanda y Escocia").
#: (a comma may end the line: "a los médicos de Calaceite,\nCretas y Beceite", the nineteenth set)
_COORDINATED = regex.compile(r"(?:[ \t]+(?:y|e|o|u|ni)[ \t]+|,[ \t]*(?:\n[ \t]*)?)" + _NAME)
#: After a town or a street: the province in parentheses, or a place after a comma or a dash (and
#: "de": "C/ Cervantes, 42, de Villarrobledo,", the twelfth set), ending there ("Sopela (Bizkaia)",
#: "Vecindario, Santa Lucía de Tirajana.", "- Molina de Segura (").
_AFTER_PLACE = regex.compile(r"[ \t]*(?:\([ \t]*" + _NAME + r"[ \t]*\)|[,–-][ \t]*(?:de[ \t]+)?" + _NAME
                             + r"(?=[ \t]*(?:[.,;(\n]|$)))")
#: After a town, another after "y"/"e" ("desde Barcelona y Baza": the eleventh set written blind);
#: only a place of the pack's tables is taken.
_AND_PLACE = regex.compile(r"[ \t]+(?:y|e|i)[ \t]+" + _NAME + r"(?![\p{L}\p{N}])")
#: A district's kind opening its name ("Barrio del Real", "Urbanización Los Pinos").
_DISTRICT_KIND = regex.compile(r"(?:Barrio|Barriada|Urbanización|Urb\.|Pedanía|Polígono|Colonia)[ ]")
#: A comma and a postal code after a name: the address goes on with its town.
_CODE_NEXT = regex.compile(r"[ \t]*,[ \t]*\d{5}(?![\p{N}])")
#: A British postcode ("LS6 3PX"), and the town before it after a comma or at a line's start.
_BRITISH_CODE = regex.compile(r"[A-Z]{1,2}\d[A-Z\d]?[ ]\d[A-Z]{2}")
_TOWN_BEFORE_CODE = regex.compile(
    r"(?:^|(?<=,))[ \t]*(?P<name>\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+){0,2})[ \t]+$", regex.MULTILINE)
#: After a town, a name in parentheses with an elided article, or before a comma: the comarca or
#: the foreign region it is in ("03801 Alcoi (l'Alcoià)", "66760 Bourg-Madame
#: (Pyrénées-Orientales, França)": the eleventh set written blind); taken when no word of it is
#: one the language knows.
_IN_PARENS = regex.compile(r"[ \t]*\([ \t]*(?P<name>(?:[lL]['’])?\p{Lu}[\p{L}\p{M}’'-]*"
                           r"(?:[ \t]+(?:(?:de|del|la|les|el|i|y)[ \t]+|d['’])?\p{Lu}[\p{L}\p{M}’'-]*){0,3})"
                           r"(?=[ \t]*[),])")
#: After a street or a road, the town it is in after "en".
_IN_PLACE = regex.compile(r"[ \t]+en[ \t]+" + _NAME + r"(?![\p{L}\p{N}])")
#: A district, hamlet or estate of a town, named after its kind ("barrio de Los Dolores",
#: "pedanía de La Aljorra", "urbanización Costa Nova"): MEDDOCAN files it as a territory.
_DISTRICT = regex.compile(
    r"(?<![\p{L}\p{N}])(?:barrio|barriada|pedanía|urbanización|distrito|parroquia|aldea|caserío"
    # lower case: "del Barrio" is a surname
    r"|lugar|parròquia|barri|bairro|comarca|concejo|pueblo"
    # the seventh and eighth sets written blind: "provincia del Cañar", "una finca de Valmuel",
    # "el paso fronterizo de El Tarajal", "el puerto de Celeiro"
    r"|provincia|municipio|localidad|ciudad|villa|finca|paraje|partida|valle|paso[ ]fronterizo"
    # a region abroad named with its kind (the tenth set written blind: "estado de Edo, Nigeria")
    r"|puerto|estado|departamento|condado"
    # a region abroad and an industrial estate (the eleventh set: "Gujrat (región del Punjab)", "la
    # nave que la empresa tiene en el polígono de Palmones")
    r"|región|polígono(?:[ ]industrial)?"
    # a mountain range ("las colmenas entre Ateca y la sierra de Vicor": the eighth set)
    r"|sierra)[ ](?:(?:de|del)[ ])?"
    + _PLACE_NAME + r"(?![\p{L}\p{N}])")
#: A district whose kind is part of its name, after an article ("en el Barrio de la Estación",
#: the ninth set written blind; "del Barrio" alone is a surname, so an article must come first).
_DISTRICT_NAMED = regex.compile(
    r"(?<=(?<![\p{L}\p{N}])(?:el|la|en)[ ])(?P<whole>(?:Barrio|Barriada|Urbanización|Pedanía)[ ]"
    r"(?:(?:de|del|de[ ]la|de[ ]los|de[ ]las)[ ])?\p{Lu}[\p{L}’'-]+(?:[ ]\p{Lu}[\p{L}’'-]+){0,2})"
    r"(?![\p{L}\p{N}])"
    # mountains by their name after an article ("las rutas turísticas de las Montañas del Fuego":
    # the eighth set written blind, which the thirteenth round's model no longer tagged)
    r"|(?<=(?<![\p{L}\p{N}])(?:la|las|los|en)[ ])(?P<whole>(?:Montañas?|Sierra|Picos)[ ]"
    r"(?:de|del|de[ ]la|de[ ]los|de[ ]las)[ ]\p{Lu}[\p{L}’'-]+(?:[ ]\p{Lu}[\p{L}’'-]+){0,2})"
    r"(?![\p{L}\p{N}])")
#: A cove or a beach by its name after a preposition or an article ("mientras recogía las nasas
#: frente a Cala Anguila": the eighth set written blind).
_COVE = regex.compile(
    r"(?<=(?<![\p{L}\p{N}])(?:a|en|de|la|el)[ ])(?P<whole>(?:Cala|Playa|Platja|Praia)[ ]"
    r"(?:(?:de|del|d['’]|de[ ]la|de[ ]los|de[ ]las|des)[ ]?)?\p{Lu}[\p{L}’'-]+(?:[ ]\p{Lu}[\p{L}’'-]+){0,2})"
    r"(?![\p{L}\p{N}])")
#: A clinic named after its kind: "Clínica" (or in capitals) and one to four capitalised words,
#: particles between ("Clínica Atlántica del Puerto", "CLÍNICA ATLÁNTICA DEL PUERTO"); not inside
#: a longer capitalised name ("Entrevista Clínica Estructurada", a test).
_CLINIC = regex.compile(
    r"(?<![\p{L}\p{N}])(?<!\p{Lu}\p{L}*[ ])(?:Clínica|CLÍNICA)[ ](?P<name>\p{Lu}[\p{L}’'-]+"
    r"(?:[ ](?:(?:de|del|la|las|los|el|DE|DEL|LA|LAS|LOS|EL)[ ])?\p{Lu}[\p{L}’'-]+){0,3})"
    r"(?![\p{L}\p{N}])")
#: A place opening a line, then a comma and a date: where and when a report was signed
#: ("Palma, 7 de agosto de 2024", "Salt, 18 de març de 2024", "Valladolid, a 9 de noviembre",
#: "En Topas, a 24 de septiembre de 2025").
_SIGNED = regex.compile(
    r"(?m)^[ \t]*(?:En[ \t]+)?" + _PLACE_NAME
    + r"(?:[-/]\p{Lu}[\p{L}’']*)?,[ \t]*(?:(?:a[ ])?\d{1,2}(?:[ ](?:de[ ]|d['’])|[/.-]\d)"
    r"|(?:19|20)\d{2}ko[ ]\p{Ll}+[ ]\d{1,2})")  # Basque: "Barakaldo, 2026ko urriaren 20a"
#: A capitalised name of one or two words after "en" or "de", then a country in parentheses.
#: The word before "de" that makes the name after it where one is from ("natural de").
_ORIGIN_BEFORE = regex.compile(rf"(?i:{_ORIGIN_WORDS})[ \t]+$")
_BEFORE_COUNTRY = regex.compile(
    # (or English's "at", "in", "from", "to" in a maritime declaration's answers: "issued at
    # Rotterdam (Netherlands)", the nineteenth set written blind — with the country in brackets)
    r"(?<![\p{L}\p{N}])(?P<prep>en|de|desde|hacia|hasta|at|in|from|to)[ \t]+"
    r"(?P<town>\p{Lu}[\p{L}’']+"
    r"(?:[ \t]+(?:(?:upon|on|am|an|der|de|del|la|le|sur|do|da)[ \t]+)?\p{Lu}[\p{L}’']+){0,2})"
    r"(?:[ \t]*\([ \t]*(?P<country>\p{Lu}[\p{L} .]{1,30}?)[ \t]*\)"
    # or after a comma, the sentence or the parenthesis ending with it (the eleventh set written
    # blind: "su nuera (natural de Cebú, Filipinas)", "desde Burdeos (Francia)")
    r"|,[ \t]*(?P<country>\p{Lu}[\p{L}]+(?:[ ]\p{Lu}[\p{L}]+)?)(?=[ \t]*(?:[.;)\n]|$)))")
#: Where a town after a postal code ends: punctuation, a parenthesis or the line's end.
_TOWN_END = regex.compile(r"[ \t]*(?:[.,;(\n]|$)")
#: What may not follow the place: a hyphen and a letter ("Tolosa-Hunt"), a digit, "@".
_GLUED = regex.compile(r"[-‐@\p{N}]|\.\p{L}")
_WORD = regex.compile(r"\p{L}[\p{L}’']*")
_SPACED = regex.compile(r"[ \t]+")
#: A closing parenthesis, after spaces.
_CLOSE = regex.compile(r"[ \t]*\)")


@dataclass(frozen=True)
class LonePlaces:
    """The lone-place step of one pack, as plain data (picklable): folded place names with
    the category each is ("town", "country"), the pack's stop words, and the label of each
    category in the scheme."""

    places: tuple[tuple[str, str], ...]
    stop: frozenset[str]
    labels: tuple[tuple[str, str], ...]
    #: the pack's street-type words that can head an address ("C/", "Avda.", "calle")
    street_types: tuple[str, ...] = ()
    #: folded names of every municipality, province and region (any population): what may
    #: follow a postal code or a town in an address
    address_places: tuple[str, ...] = ()
    #: the proper parts of the pack's hospitals' names, as written ("Son Espases", "Morales
    #: Meseguer"): what notes call a hospital by
    hospital_names: tuple[str, ...] = ()
    #: the names and aliases of the pack's organisations, as written, less the makers of
    #: devices (MEDDOCAN leaves "Stryker" or "Medtronic" of an implant in clear)
    organisation_names: tuple[str, ...] = ()
    #: the pack's language (its lexicon tells words from names in notes typed in lower case)
    language: str = "es"
    #: the last words of the proper parts that notes call a hospital by alone ("del Trueta",
    #: "de Valdecilla", "la Arrixaca"): no word of the language, given name, town or month
    hospital_words: tuple[str, ...] = ()
    #: the pack's kinship words and honorifics, folded: "hija de Rosario" names a person
    persons_before: frozenset[str] = frozenset()
    #: folded names of the municipalities too small for ``places`` that are no given name or
    #: surname of the tables: a place after a preposition when no word of theirs is one of
    #: the language's ("desde Llanes", "hasta Ribadeo", "treballa a Benaguasil": the
    #: seventeenth set written blind left them in clear; "en Mora" stays a word)
    small_towns: tuple[str, ...] = ()

    @classmethod
    def for_pack(cls, pack: LanguagePack | None, labels: Mapping[str, str | None]) -> LonePlaces | None:
        """The step for ``pack``, or None: the pack does not ask for it (``lone_places``) or
        the scheme has no town label."""
        if pack is None or not pack.lone_places or not labels.get("town"):
            return None
        least = pack.lone_places["min_population"]
        places: dict[str, str] = {}
        for row in pack.table("municipality").rows:
            if _count(row.get("population")) >= least:
                places[fold(row["name"])] = "town"
                for part in bilingual_parts(row["name"]):  # "Alboraia/Alboraya": each name
                    places.setdefault(fold(part), "town")
        for name in ("province", "community", "territory", "foreign_place"):
            if name in pack.tables:
                places.update(dict.fromkeys((fold(e) for e in pack.table(name).entries), "town"))
        # the islands, which no table of places holds: the pseudonymiser's list by archipelago
        # (surrogates.yaml ``islands``), one list for both
        islands = frozenset(map(fold, pack.island_names()))
        places.update(dict.fromkeys(islands, "town"))  # "se trasladó a Tenerife"
        if "country" in pack.tables and labels.get("country"):
            places.update(dict.fromkeys((fold(e) for e in pack.table("country").entries), "country"))
            # and the other spellings the pseudonymiser knows ("Su médico de cabecera en
            # Inglaterra": the twelfth set written blind; surrogates.yaml ``country_aliases``)
            aliases = pack.surrogate.get("country_aliases") or {}
            places.update(dict.fromkeys((fold(a) for forms in aliases.values() for a in forms
                                         if len(a) > 3 and not a.isupper()), "country"))
        stop = frozenset(fold(w) for w in pack.stopwords) | frozenset(
            fold(w) for w in pack.word_classes)
        kept = {k: v for k, v in places.items() if k not in stop}
        types = tuple(sorted(
            {form for forms in pack.street_types.values() for form in forms
             if fold(form) not in _AMBIGUOUS_TYPES and (len(form) > 2 or "/" in form or "º" in form)},
            key=lambda f: (-len(f), f),
        )) if labels.get("street") else ()
        towns = folded_entries(pack, ("municipality", "province", "community", "territory"),
                               parts=True) | islands
        propers, singles = _hospital_propers(pack, towns) if labels.get("hospital") else ((), ())
        organisations = tuple(sorted(
            {name for row in pack.table("organisation").rows if row.get("kind") not in _NOT_NAMED
             for name in (row["name"], *filter(None, (row.get("aliases") or "").split("|")))}
        )) if "organisation" in pack.tables and labels.get("organisation") else ()
        people = folded_entries(pack, ("given_name", "surname"))
        small = folded_entries(pack, ("municipality",), parts=True).difference(kept, stop)
        return cls(tuple(sorted(kept.items())), stop,
                   tuple(sorted((c, lab) for c, lab in labels.items() if lab)), types,
                   tuple(sorted(towns - stop)), propers, organisations, pack.language,
                   _hospital_words(pack, (*propers, *singles), towns | stop),
                   frozenset(pack.kinship) | frozenset(pack.honorifics),
                   tuple(sorted(k for k in small if " " in k or k not in people)))

    @cached_property
    def _place_of(self) -> dict[str, str]:
        """``places`` as a mapping, built once (ten thousand names: not per note)."""
        return dict(self.places)

    @cached_property
    def _small_towns(self) -> frozenset[str]:
        return frozenset(self.small_towns)

    def _small_town(self, key: str, name: str) -> bool:
        """Is ``name`` (folded ``key``) a small town's, with a word no lexicon knows? Never an
        acronym's capitals or a name of three letters ("escolarizado en CEE", a special school,
        is no "Cee"; "en EA", "hasta ALP": the round's review)."""
        letters = name.replace(" ", "")
        if key not in self._small_towns or len(key) < 4 or (letters.isupper() and len(letters) <= 5):
            return False
        from .lexicon import lexicon

        try:
            return not all(lexicon().is_known(w.lower(), self.language)
                           for w in _WORD.findall(name) if fold(w) not in _PARTICLES)
        except ValueError:
            return False

    def streets(self, text: str, taken: list[tuple[int, int]], spans: Sequence[Span] = ()) -> list[Span]:
        """An address named after its street type that no detected span touches but places
        inside its name: "C/ Real, 45 - 1º" heading a letter, "en la calle Corrida" in a
        forensic report, "Pza. de España 4" (``spans``: the detected ones, whose streets stay)."""
        return _streets(self, text, taken, spans)

    @cached_property
    def _address_places(self) -> frozenset[str]:
        return frozenset(self.address_places)

    def address_field(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """The value of an address field up to its first comma, a name and a house number, that
        no span touches: a street whatever its words ("Domicilio habitual: Lindenthalgürtel
        114, 50935 Köln", which a model had found and the next one missed)."""
        street = dict(self.labels).get("street")
        if not street:
            return []
        return [Span(m.start("street"), m.end("street"), street, source=SOURCE)
                for m in _ADDRESS_FIELD.finditer(text)
                if not overlaps(taken, m.start("street"), m.end("street"))]

    def coordinated(self, text: str, spans: Sequence[Span], taken: list[tuple[int, int]]) -> list[Span]:
        """A town or a country of the tables joined to a detected one by "y", "e", "o", "ni" or
        a comma ("en aguas de Irlanda y Escocia": the thirteenth set written blind left the
        second), with the label of its own kind; each found one may be followed by another."""
        places, labels = self._place_of, dict(self.labels)
        wanted = {labels[k] for k in ("town", "country") if k in labels}
        found: list[Span] = []
        found_ranges = Taken()
        queue = [s for s in spans if s.label in wanted and not s.fragments]
        while queue:
            span = queue.pop()
            m = _COORDINATED.match(text, span.end)
            if m is None:
                continue
            words = list(_WORD.finditer(m["name"]))
            for k in range(len(words), 0, -1):
                end = m.start("name") + words[k - 1].end()
                key = fold(text[m.start("name") : end])
                # a small town too, named beside a town ("Calaceite, Cretas y Beceite": the
                # nineteenth set written blind), when no word of the language
                name = text[m.start("name") : end]
                kind = places.get(key) or ("town" if self._small_town(key, name) else None)
                if kind not in ("town", "country") or kind not in labels:
                    continue
                if not _GLUED.match(text, end) and not overlaps(taken, m.start("name"), end) \
                        and not overlaps(found_ranges, m.start("name"), end):
                    new = Span(m.start("name"), end, labels[kind], source=SOURCE)
                    found.append(new)
                    found_ranges.add(new.start, new.end)
                    queue.append(new)
                break
        return found

    def signed(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """The town where a report was signed, opening a line before a comma and a date
        ("Palma, 7 de agosto de 2024", "Salt, 18 de març de 2024": a town of 30,000 people the
        tagger missed; "Barakaldo, 2026ko urriaren 20a"): a name of the pack's towns, any
        population, touching no span."""
        town = dict(self.labels).get("town")
        if not town or not self.address_places:
            return []
        found = []
        for m in _SIGNED.finditer(text):
            start, end = m.start("name"), m.end("name")
            if fold(m["name"]) in self._address_places and not overlaps(taken, start, end):
                found.append(Span(start, end, town, source=SOURCE))
        return found

    def clinics(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A private clinic named after its kind, capitalised, that no span touches ("CLÍNICA
        ATLÁNTICA DEL PUERTO" heading a letter, "la Clínica Atlántica del Puerto" in it: the fifth
        set written blind left both in clear). MEDDOCAN files "Clínica …" as a hospital more
        often than as an institution (8 to 5 over train+dev); the tagger finds all of them, so
        over MEDDOCAN this step adds nothing."""
        taken = own(taken)
        label = dict(self.labels).get("hospital")
        if not label:
            return []
        found = []
        for m in _CLINIC.finditer(text):
            # a span strictly inside gives way ("Tolosa" of "Clínica Asunción de Tolosa" as a
            # hospital: the retrained model of the eleventh round)
            if fold(m["name"]) in self.stop or not _within(taken, m.start(), m.end()):
                continue
            found.append(Span(m.start(), m.end(), label, source=SOURCE))
            taken.add(m.start(), m.end())
        return found

    def lower_facilities(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A health centre or a hospital by its kind's short form in lower case and its town
        ("derivado de cs sabiñanigo", "pac xinzo", "colecistectomia en hosp. jaca", "cs sabi" cut
        short): the sixteenth and seventeenth sets written blind left each in clear. The town
        must be one of the tables' (any size), the start of one, or no word of the language
        ("hospital de dia" is no hospital)."""
        taken = own(taken)
        labels = dict(self.labels)
        if not (labels.get("hospital") or labels.get("health_centre")):
            return []
        from .lexicon import lexicon

        found: list[Span] = []
        for m in _LOWER_FACILITY.finditer(text):
            name = fold(m["name"])
            try:
                known = lexicon().is_known(m["name"], self.language)
            except ValueError:
                known = True
            if not (name in self._address_places or not known
                    or (len(name) >= 4 and self._town_start(name))):
                continue
            if name in self.stop or not _within(taken, m.start(), m.end()):
                continue
            label = labels.get("hospital" if m["kind"].startswith("h") else "health_centre")
            if label:
                found.append(Span(m.start(), m.end(), label, source=SOURCE))
                taken.add(m.start(), m.end())
        return found

    def _town_start(self, name: str) -> bool:
        """Is ``name`` the start of a town's name, cut short ("sabi" of "sabiñanigo")?"""
        places = self._sorted_places
        at = bisect.bisect_left(places, name)
        return at < len(places) and places[at].startswith(name)

    @cached_property
    def _sorted_places(self) -> list[str]:
        return sorted(self._address_places)

    def districts(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A district of a town named after its kind ("barrio de Los Dolores (Cartagena)",
        which left both in clear): no table lists districts, the kind word says it is one; the
        town after it in parentheses then comes with ``chained``. Not a name of the stop list
        alone, nor a span's."""
        taken = own(taken)
        town = dict(self.labels).get("town")
        if not town:
            return []
        found = []
        for m in _DISTRICT.finditer(text):
            start, end = m.start("name"), m.end("name")
            # a tagger's span inside the name gives way ("partida de La Alegría" with "Alegría"
            # as a sex: the tenth set written blind)
            if fold(m["name"]) in self.stop or not _within(taken, start, end):
                continue
            if m["name"].isupper() and len(m["name"]) <= 4:
                continue  # an acronym: "la región del CO" (the optic canal), no place
            found.append(Span(start, end, town, source=SOURCE))
            taken.add(start, end)
        for m in _COVE.finditer(text):  # "frente a Cala Anguila": a cove or a beach by its name
            start, end = m.span("whole")
            if _within(taken, start, end):
                found.append(Span(start, end, town, source=SOURCE))
                taken.add(start, end)
        for m in _DISTRICT_NAMED.finditer(text):  # "en el Barrio de la Estación": the whole name
            start, end = m.span("whole")
            if _within(taken, start, end):  # "Alfonso" of "la Barriada Príncipe Alfonso" gives way
                found.append(Span(start, end, town, source=SOURCE))
        return found

    def chained(self, text: str, spans: Sequence[Span], taken: list[tuple[int, int]]) -> list[Span]:
        """The places an address goes on with after a detected postal code, town, street or
        facility ("35110 Vecindario", "Sopela (Bizkaia)", "Vecindario, Santa Lucía de
        Tirajana", "ALMENDROS - Molina de Segura"): after a postal code the town up to the
        punctuation, else a name of the pack's towns, provinces or regions (any population: the
        address says it is a place) — in parentheses, of its foreign places too ("Quibdó
        (Chocó)") — touching no span."""
        taken = own(taken)
        labels = dict(self.labels)
        town = labels.get("town")
        if not town or not self.address_places:
            return []
        chain = {label for category, label in labels.items()
                 if category in ("town", "street", "hospital", "health_centre", "organisation")}
        facilities = {label for category, label in labels.items()
                      if category in ("hospital", "health_centre", "organisation")}
        places, found = self._address_places, []
        queue = deque(sorted((s for s in spans if s.label in chain), key=lambda s: s.start))
        while queue:
            span = queue.popleft()
            if span.label == town and _BRITISH_CODE.fullmatch(text, span.start, span.end):
                # a British postcode after its town, the town taken ("14 Otley Road, Leeds LS6 3PX":
                # the twelfth set written blind left "Leeds" once the code was found)
                before = _TOWN_BEFORE_CODE.search(text, max(0, span.start - 60), span.start)
                if before is not None and not overlaps(taken, *before.span("name")):
                    found.append(Span(*before.span("name"), town, source=CHAIN_SOURCE))
                    taken.add(*before.span("name"))
            digits = text[span.start : span.end].strip().isdigit()
            m = (_AFTER_CODE if digits else _AFTER_PLACE).match(text, span.end)
            if m is None and span.label == town:  # "llegan desde Barcelona y Baza": a known place
                m = _AND_PLACE.match(text, span.end)
            if m is None and span.label == labels.get("street"):  # "un área de servicio de la AP-7
                m = _IN_PLACE.match(text, span.end)  # en La Jonquera": a known place, any size
            if m is None and span.label == town:
                m = _IN_PARENS.match(text, span.end)
                if m is not None and not (self._unknown_name(list(_WORD.finditer(m["name"])))
                                          and _within(taken, *m.span("name"))):
                    continue
                if m is not None:
                    new = Span(*m.span("name"), town, source=CHAIN_SOURCE)
                    found.append(new)
                    taken.add(new.start, new.end)
                    continue
            if m is None:
                continue
            words = list(_WORD.finditer(m["name"]))
            for k in range(len(words), 0, -1):  # the longest run of the name's words that is a place
                end = m.start("name") + words[k - 1].end()
                if _GLUED.match(text, end):
                    continue
                # after a postal code the town comes, up to a comma or the line's end, whether or
                # not the pack lists it ("35110 Vecindario": a locality, no municipality)
                whole = k == len(words) and digits and _TOWN_END.match(text, end) is not None
                name = fold(text[m.start("name") : end])
                # in parentheses after a town, a region of another country too ("Quibdó (Chocó)")
                foreign = (not digits and text[span.end : m.start("name")].strip() == "("
                           and self._place_of.get(name) == "town")
                # in parentheses after a hospital or an organisation, the whole parenthesis is
                # where it is, whether or not the pack lists it, when it is no acronym and no
                # word of the language (the seventh set: "Hospital Nostra Senyora de Meritxell
                # (Escaldes-Engordany)")
                # — and after a town, a comarca no table holds ("Deltebre (Baix Ebre)": the ninth
                # set, whose tagger took "Ebre" alone), over the tagger's piece inside it
                where = ((span.label in facilities or span.label == town) and k == len(words)
                         and text[span.end : m.start("name")].strip() == "("
                         and _CLOSE.match(text, end) is not None and self._unknown_name(words))
                # after a street and a comma, a district by its kind ("Calle Álvaro de Bazán, 7,
                # 2.º A, Barrio del Real, 52003 Melilla": the ninth set written blind, which a
                # retrained tagger no longer took whole with the street)
                district = (span.label == labels.get("street") and k == len(words)
                            and _DISTRICT_KIND.match(m["name"]) is not None)
                # after a street and a comma, a name no table holds and no word of the language,
                # then a comma and a postal code: a parish or a village ("Rúa da Pedra Moura, 6,
                # 2º, Aguiño, 15965 Ribeira": the eighteenth set written blind)
                parish = (span.label == labels.get("street") and k == len(words)
                          and _CODE_NEXT.match(text, end) is not None and self._unknown_name(words))
                if not whole and name not in places and not foreign and not where and not district \
                        and not parish:
                    continue
                if not overlaps(taken, m.start("name"), end) or (
                        where and span.label == town and _within(taken, m.start("name"), end)):
                    new = Span(m.start("name"), end, town, source=CHAIN_SOURCE)
                    found.append(new)
                    taken.add(new.start, new.end)
                    queue.append(new)  # "Vecindario", then ", Santa Lucía de Tirajana"
                break
        return found

    def _unknown_name(self, words: Sequence[regex.Match[str]]) -> bool:
        """Words that can only be a name: none an acronym, a stop-listed word or a word the
        language's dictionary knows."""
        from .lexicon import lexicon

        if any(w.group().isupper() or fold(w.group()) in self.stop for w in words):
            return False
        # a hyphened name is one word ("Escaldes-Engordany": "escaldes" is a verb's form)
        text = words[0].string[words[0].start() : words[-1].end()]
        try:
            return not any(lexicon().is_common(w.lower(), self.language) for w in _SPACED.split(text))
        except ValueError:  # no word list for the language: a name is not told from a word
            return False

    @cached_property
    def _hospital_index(self) -> dict[str, tuple[str, ...]]:
        """The hospitals' proper names by their first word, longest first (a lookup per
        candidate, not one pattern of 519 alternatives: 3 MB less in every process)."""
        index: dict[str, list[str]] = {}
        for name in self.hospital_names:
            first = _FIRST_WORD.match(name)
            if first is not None:
                index.setdefault(first.group(), []).append(name)
        return {first: tuple(sorted(names, key=len, reverse=True)) for first, names in index.items()}

    def hospitals(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A hospital called by the proper part of its name after "el", "del", "al", "de", "en",
        "la" or "(": "intervenida en el Morales Meseguer", "(Son Espases, planta 0)", "Oncología
        del Miguel Servet" — names of two words or more from the pack's hospital table —, or by
        the last word of it (``hospital_words``: "del Trueta"). A span of the tagger inside the
        name ("Miguel" as a person) gives way to it."""
        label = dict(self.labels).get("hospital")
        if not self.hospital_names or not label:
            return []
        index, found = self._hospital_index, []
        for m in _BEFORE_HOSPITAL.finditer(text):
            start = m.end()
            word = _FIRST_WORD.match(text, start)
            for name in index.get(word.group(), ()) if word is not None else ():
                end = start + len(name)
                if text.startswith(name, start) and not _WORD_GOES_ON.match(text, end):
                    if not any(not (start <= s and e <= end) for s, e in overlapping(taken, start, end)):
                        found.append(Span(start, end, label, source=HOSPITAL_SOURCE))
                    break
        # the last word of a name alone ("comité de EPID del Trueta", "Cardiología Infantil de
        # Valdecilla", "ingresó en la Arrixaca": the eighth set written blind), not the first
        # word of a longer name
        words = frozenset(self.hospital_words)
        with_found = own(taken)
        with_found.extend((s.start, s.end) for s in found)
        for m in _BEFORE_HOSPITAL.finditer(text) if words else ():
            alone = _ALONE.match(text, m.end())
            if alone is not None and alone["word"] in words:
                start, end = m.end(), alone.end("word")
                if not overlaps(with_found, start, end):
                    found.append(Span(start, end, label, source=HOSPITAL_SOURCE))
                    with_found.add(start, end)
        # a hospital's span the tagger ended one word short ("Hospital Universitari de Girona
        # Doctor Josep" of "… Josep Trueta": the fifth set, once the model was retrained): whole
        for a, b in taken if words else ():
            alone = _ALONE.match(text, b + 1) if text[b : b + 1] == " " else None
            if alone is not None and alone["word"] in words and _FACILITY_START.match(text, a, b):
                end = alone.end("word")
                if not any((start, e) != (a, b) for start, e in overlapping(taken, b, end)):
                    found.append(Span(a, end, label, source=HOSPITAL_SOURCE))
        return found

    @cached_property
    def _organisation_index(self) -> dict[str, tuple[str, ...]]:
        """The organisations' names and aliases by their first word in capitals, longest first."""
        index: dict[str, list[str]] = {}
        for name in self.organisation_names:
            first = _FIRST_WORD.match(name)
            if first is not None:
                index.setdefault(first.group().upper(), []).append(name)
        return {first: tuple(sorted(names, key=len, reverse=True)) for first, names in index.items()}

    def organisations(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """An organisation of the pack's list named as the list writes it, or in capitals
        ("Mutualista MUFACE n.º", "ASISA - Delegación Provincial"), that no span touches. Over
        MEDDOCAN train+dev every such name but the device makers' is PHI (89 of 89 inside a gold
        span); the tagger, which has the list as a feature, left "ASISA" of a blind note. A name
        that is also a word of the language ("Telefónica", "Consum") is taken only as the list
        writes it and not where a sentence or line starts: "CONSULTA TELEFÓNICA" is a telephone
        consultation."""
        taken = own(taken)
        label = dict(self.labels).get("organisation")
        index = self._organisation_index if label else {}
        found: list[Span] = []
        if not index:
            return found
        for word in _CAPITAL_WORD.finditer(text):
            for name in index.get(word.group().upper(), ()):
                start, end = word.start(), word.start() + len(name)
                written = text[start:end]
                if written != name and not (written.isupper() and written == name.upper()):
                    continue
                if self._ordinary_word(name) and (written != name or _sentence_start(text, start)):
                    continue
                # a tagger's span strictly inside a name of two words or more gives way to it
                # ("Almería" of "Almería Acoge" as a town, "Acoge" as a company)
                touching = overlapping(taken, start, end)
                inside = " " in name and bool(touching) and all(
                    start <= s and e <= end and (s, e) != (start, end) for s, e in touching)
                if not _WORD_GOES_ON.match(text, end) and (inside or not overlaps(taken, start, end)):
                    found.append(Span(start, end, label, source=ORGANISATION_SOURCE))
                    taken.add(start, end)
                    break
        return found

    def _ordinary_word(self, name: str) -> bool:
        """Is the organisation's name one word that the language's lexicon knows?"""
        if " " in name:
            return False
        from .lexicon import lexicon

        try:
            return lexicon().is_known(name.lower(), self.language)
        except ValueError:
            return False

    def resident(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A town of any population where one lives or was born, or near which something
        happened ("residente en Comillas", "vive en A Pobra do Caramiñal", "vivía sola en
        Ólvega", "nacida en Becerreá", "una ruta cerca de Potes"): the longest run of the name's
        words that the pack's towns, provinces or regions hold, ending the name, touching no
        span but those strictly inside it."""
        taken = own(taken)
        town = dict(self.labels).get("town")
        if not town or not self.address_places:
            return []
        places, found = self._address_places, []
        for m in _RESIDENT.finditer(text):
            words = list(_WORD.finditer(m["name"]))
            for k in range(len(words), 0, -1):
                end = m.start("name") + words[k - 1].end()
                if fold(text[m.start("name") : end]) not in places:
                    continue
                if k == len(words) and not _GLUED.match(text, end) and _within(taken, m.start("name"), end):
                    found.append(Span(m.start("name"), end, town, source=SOURCE))
                    taken.add(m.start("name"), end)
                break
        return found

    def of_place(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A place the tables hold (any town, a province, a region, a country, a foreign city)
        named after a common noun and "de", whole, touching no span: "una clínica privada de
        Tetuán", "la tonelería familiar de Ribadavia"; not after a noun a town names a thing
        after ("criterios de Roma", ``_NAMED_AFTER``) or a kinship word ("hija de Rosario"),
        nor a word of the language ("de Mayo")."""
        taken = own(taken)
        town = dict(self.labels).get("town")
        if not town:
            return []
        from .lexicon import lexicon

        kinds, anywhere, found = self._place_of, self._address_places, []
        for at in _OF_AT.finditer(text):
            m = _HEAD_BEFORE.search(text, max(0, at.start() - 60), at.start())
            name = _NAME_AFTER_DE.match(text, at.end()) if m is not None else None
            if m is None or name is None:
                continue
            if m["head"] in _NAMED_AFTER or (m["adjective"] or "") in _NAMED_AFTER:
                continue
            head = fold(m["head"])
            if head in self.persons_before or (head in self.stop and not m["adjective"]):
                continue  # "hija de Rosario", "hija mayor de Rosario": a person; "y de Manuel"
            start, end = name.span("name")
            key = fold(name["name"])
            if key in self.stop or (key not in kinds and key not in anywhere):
                continue
            try:  # "de Mayo", "de Vida": a word of the language, not the town of that name
                if (" " not in name["name"] and kinds.get(key) != "country"
                        and lexicon().is_common(name["name"].lower(), self.language)):
                    continue
            except ValueError:
                pass
            if not overlaps(taken, start, end):
                label = dict(self.labels).get("country") if kinds.get(key) == "country" else None
                found.append(Span(start, end, label or town, source=SOURCE))
                taken.add(start, end)
        return found

    def born_in(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """Where one was born, comes from or lives, named with a word no table holds and the
        language does not know, or knows only as a proper noun ("natural de Nador", "originario
        de la región de Kolda", "natural de Járkov", "reside en Corralejo": towns of other
        countries and villages the tables lack): after "natural de", "originario de", "nacido
        en", "reside en", "vive en", "a la altura de", or as the value of a place's header field
        ("Parroquia: Barcia", "Conceyu: Valdés") the name is a place."""
        taken = own(taken)
        town = dict(self.labels).get("town")
        if not town:
            return []
        from .lexicon import lexicon

        found = []
        for m in _BORN_IN.finditer(text):
            start, end = m.span("name")
            words = _WORD.findall(m["name"])
            if fold(m["name"]) in self.stop or not _within(taken, start, end):
                continue
            try:  # a proper noun of the dictionary is no word of the language ("Járkov"); a
                # place's field says what its value is ("Parroquia: Barcia", a surname too)
                known = m["field"] is None and any(lexicon().is_common(w.lower(), self.language)
                                                   for w in words)
            except ValueError:
                known = True
            key = fold(m["name"])
            if known and (self._place_of.get(key) == "town" or key in self._address_places):
                known = False  # a town of the tables that is a word too ("término municipal de Cella")
            if not known:
                # a country the dictionary knows as a proper noun ("natural de Colombia"): the
                # country's label, where the scheme has one
                kind = self._place_of.get(fold(m["name"]))
                label = dict(self.labels).get("country") if kind == "country" else None
                found.append(Span(start, end, label or town, source=SOURCE))
                taken.add(start, end)
        return found

    def elided(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A town of the tables after an elided article or preposition, Catalan's way ("natural
        d'Olot", "vive en l'Escala", "l'Hospitalet de Llobregat"), that the tokenizer cuts at
        the apostrophe and the tagger missed or took in part ("Llobregat" alone, "Escala" as a
        name): the whole town, its article "l'" with it (the article is part of its name; a
        surrogate then reads "en Cabrera", never "en l'Cabrera")."""
        taken = own(taken)
        town = dict(self.labels).get("town")
        if not town:
            return []
        places, anywhere, found = self._place_of, self._address_places, []
        for m in _ELIDED.finditer(text):
            words = list(_WORD.finditer(m["name"]))
            article = m["art"] in "lL"
            for k in range(len(words), 0, -1):
                end = m.start("name") + words[k - 1].end()
                bare = fold(text[m.start("name") : end]).replace("’", "'")
                key = f"l'{bare}" if article and (f"l'{bare}" in places or f"l'{bare}" in anywhere) else bare
                # any population: the elision says the name is a Catalan place's
                if bare in self.stop or (places.get(key) != "town" and key not in anywhere):
                    continue
                if _GLUED.match(text, end):
                    break
                start = m.start() if article else m.start("name")
                if _within(taken, start, end):
                    found.append(Span(start, end, town, source=SOURCE))
                    taken.add(start, end)
                break
        return found

    def route(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """Places joined by dashes, a journey or a route ("vuelo Palma–Doha–Manila": the tenth
        set written blind left all three in clear): every part a place of the tables (a plain
        hyphen, "Madrid-Barcelona": a town of ``min_population``, as a compound's parts may be
        words), each part a place."""
        taken = own(taken)
        town = dict(self.labels).get("town")
        if not town:
            return []
        places, anywhere, labels, found = self._place_of, self._address_places, dict(self.labels), []
        for m in _ROUTE.finditer(text):
            parts = list(_ROUTE_PART.finditer(m.group()))
            dashes = regex.findall(r"[–—]| - ", m.group())
            if any(fold(p.group()) in self.stop or (
                    places.get(fold(p.group())) not in ("town", "country")
                    and not (dashes and fold(p.group()) in anywhere)) for p in parts):
                continue
            spans = [(m.start() + p.start(), m.start() + p.end(), places.get(fold(p.group()))) for p in parts]
            if any(overlaps(taken, a, b) for a, b, _ in spans):
                continue
            for a, b, kind in spans:
                found.append(Span(a, b, labels.get(kind or "town") or town, source=SOURCE))
                taken.add(a, b)
        return found

    def before_country(self, text: str, taken: list[tuple[int, int]]) -> list[Span]:
        """A town named with its country in parentheses ("nacido en Tánger (Marruecos)",
        "natural de Quibdó (Colombia)"): foreign towns no table holds, which the country
        says are places."""
        town = dict(self.labels).get("town")
        if not town:
            return []
        places, found = self._place_of, []
        for m in _BEFORE_COUNTRY.finditer(text):
            if places.get(fold(m["country"])) != "country" or fold(m["town"]) in self.stop:
                continue
            if (m["prep"] == "de" and text[m.end("town")] == ","
                    and not _ORIGIN_BEFORE.search(text, max(0, m.start() - 20), m.start())):
                continue  # "la familia de Pedro, Francia y…": after a comma, only where one is from
            if m["prep"] not in ("en", "de", "desde", "hacia", "hasta") and text[m.end("town")] == ",":
                continue  # after English's words, the country in brackets only
            start, end = m.span("town")
            # a town the tables hold too: the whole name ("natural de Newcastle upon Tyne (Reino
            # Unido)", which the steps after would cut at "upon")
            if not overlaps(taken, start, end) and places.get(fold(m["town"])) != "country":
                found.append(Span(start, end, town, source=SOURCE))
        return found

    def _candidates(self, text: str) -> Iterable[regex.Match[str]]:
        """The names after a preposition; in a note or a line typed in lower case ("vive sola
        en c/ de la mar 14, bajo, alboraia"; "trabaja de cajera en un super de tacoronte" under a
        header in capitals), lower-case names too — after "de" as well — those no lexicon knows
        as a word ("en granada" may be the fruit: it stays)."""
        yield from _CANDIDATE.finditer(text)
        lines = lower_case_lines(text)
        if not lines:
            return
        from .lexicon import lexicon

        for m in (m for start, end in lines for m in _LOWER_CANDIDATE.finditer(text, start, end)):
            try:
                known = all(lexicon().is_known(w, self.language) for w in _WORD.findall(m["name"])
                            if w not in _PARTICLES)
            except ValueError:
                known = True
            if not known:
                yield m

    def spans(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The places ``text`` names after a preposition, and the streets it names after a
        street type, that no span of ``spans`` touches; the places an address goes on with
        after a detected one (``chained``)."""
        places, labels = self._place_of, dict(self.labels)
        taken = Taken((s.start, s.end) for s in spans)
        found: list[Span] = []
        steps: tuple[Callable[[Taken], list[Span]], ...] = (
            lambda taken: self.streets(text, taken, spans),
            lambda taken: self.address_field(text, taken),
            lambda taken: self.before_country(text, taken),
            lambda taken: self.hospitals(text, taken),
            lambda taken: self.organisations(text, taken),
            lambda taken: self.elided(text, taken),
            lambda taken: self.route(text, taken),
            lambda taken: self.resident(text, taken),
            lambda taken: self.born_in(text, taken),
            lambda taken: self.of_place(text, taken),
            lambda taken: self.districts(text, taken),
            lambda taken: self.clinics(text, taken),
            lambda taken: self.lower_facilities(text, taken),
            lambda taken: self.signed(text, taken),
            lambda taken: self.chained(text, [*spans, *found], taken),
        )
        for step in steps:  # each step sees what the ones before it found as taken
            new = step(taken)
            found.extend(new)
            taken.extend((s.start, s.end) for s in new)
        lone: list[Span] = []
        for m in self._candidates(text):
            words = list(_WORD.finditer(m["name"]))
            # the longest run of the name's first words that is a place, and that the name ends
            for k in range(len(words), 0, -1):
                end = m.start("name") + words[k - 1].end()
                key = fold(text[m.start("name") : end])
                kind = places.get(key) or ("town" if self._small_town(key, text[m.start("name") : end])
                                           else None)
                if kind is None:
                    continue
                if k < len(words) or _GLUED.match(text, end):
                    break  # a longer name goes on ("en Santiago Apóstol"), or the word does
                if _within(taken, m.start("name"), end):
                    lone.append(Span(m.start("name"), end, labels[kind], source=SOURCE))
                break
        if lone:  # the places an address goes on with after these ("en Quibdó (Chocó)")
            with_lone = taken.copy()
            with_lone.extend((s.start, s.end) for s in lone)
            lone.extend(self.chained(text, lone, with_lone))
        taken.extend((s.start, s.end) for s in lone)
        lone.extend(self.coordinated(text, [*spans, *found, *lone], taken))
        return [*found, *lone]


def _street_pattern(types: tuple[str, ...], lower: bool = False) -> regex.Pattern[str]:
    """The street pattern; ``lower``: for a note typed in lower case, where the name's words
    are in any case and the house number is required ("c/ de la mar 14, bajo")."""
    if lower:  # a note typed without accents too ("rua da limia 17 1o": the seventeenth set)
        types = tuple(dict.fromkeys([*types, *(fold(t) for t in types)]))
    forms = "|".join(regex.escape(t).replace("\\ ", "[ \\t]*") for t in types)
    word = r"\p{L}[\p{L}’'-]*" if lower else r"(?:\p{Lu}\p{Ll}[\p{L}’'-]*|\p{Lu}{2,})"
    return regex.compile(
        rf"(?<![\p{{L}}\p{{N}}])(?i:{forms})(?<=[./º]|\p{{L}})[ \t]{{0,2}}"
        # Galician and Catalan particles too ("Rúa da Paz, 19": the sixth set written blind,
        # which the retrained model of the twelfth round left to this step)
        # and Catalan's elided "d'" ("plaça d'Espanya, 3": the nineteenth set written blind)
        r"(?:(?:de|del|de[ \t]+la|de[ \t]+los|de[ \t]+las|da|do|das|dos|dels)[ \t]+|d['’])?"
        + word + r"(?:[ \t]+(?:(?:de|del|la|las|los|el|y|da|do|das|dos|i)[ \t]+)?" + word + r"){0,3}"
        + r"(?:" + _NUMBER_AND_DOOR + ")" + ("" if lower else "?")
    )


#: The house number, floor and door after a street's name: ", 45 - 1º", " 5, 1º A", " 14, bajo".
_NUMBER_AND_DOOR = (
    r"[ \t]*,?[ \t]*(?:n[º°o]\.?[ \t]*)?\d{1,4}[A-Za-z]?(?![\p{L}\p{N}/.,]\d)"
    r"(?:[ \t]*[-,][ \t]*(?:\d{1,2}(?!\d)(?:\.?[ºª°]|[ \t]*[ºª°])?(?:[ \t]*[A-Za-z](?![\p{L}]))?"
    r"(?:[ \t]+(?:izda|izq|dcha|der)\.?)?"
    r"|bajo|izda\.?|izq\.?|dcha\.?"
    r"|der\.?))*")
#: A street whose type is also a word ("Camino", "Barrio", "Partida"), capitalised, then a
#: particle, one to three capitalised words, a comma and a house number.
_WORD_TYPED_STREET = regex.compile(
    r"(?<![\p{L}\p{N}])(?:Camino|Barrio|Partida|Cuesta|Ronda|Travesía|Callejón|Pasaje|Rambla|Glorieta)"
    r"[ ](?:de|del|de[ ]la|de[ ]los|de[ ]las)[ ]\p{Lu}[\p{L}’'-]+"
    r"(?:[ ](?:(?:de|del|la|el)[ ])?\p{Lu}[\p{L}’'-]+){0,2}"
    r",[ ]\d{1,4}[A-Za-z]?(?![\p{L}\p{N}/.,]\d)")
#: A Basque street: its name, then the type ("Nafarroa kalea 5, 1º A", "Gipuzkoa etorbidea 12"),
#: then the house number (required).
_BASQUE_STREET = regex.compile(
    r"(?<![\p{L}\p{N}])\p{Lu}[\p{L}’'-]+(?:[ ]\p{Lu}[\p{L}’'-]+){0,2}[ ]"
    r"(?:kalea|etorbidea|pasealekua|enparantza|errepidea|bidea)(?=[ \t]*,?[ \t]*\d)" + _NUMBER_AND_DOOR)


def with_lone_places(text: str, spans: Iterable[Span], step: LonePlaces | None) -> list[Span]:
    """``spans`` and the places ``step`` finds beside them, sorted by offset."""
    spans = list(spans)
    if step is None:
        return spans
    found = step.spans(text, spans)
    named = [(s.start, s.end) for s in found
             if s.source in (HOSPITAL_SOURCE, SOURCE, STREET_SOURCE, ORGANISATION_SOURCE)]
    if named:  # "Miguel" of "del Miguel Servet" gives way to the hospital, "LA REINA" to the town
        spans = [s for s in spans if not any(a <= s.start and s.end <= b for a, b in named)]
    return sorted([*spans, *found], key=lambda s: (s.start, s.end, s.label))


#: Street-type words that are ordinary words or other things's abbreviations in notes ("vía
#: oral", "lugar", "parque", "col." for colegiado, "pol." for polígono and polimedicado, "pg." for
#: picograms: "25,7 pg. Tras este episodio").
_AMBIGUOUS_TYPES = frozenset({"via", "lugar", "parque", "partida", "camino", "cuesta", "barrio", "colonia",
                              "col.", "pol.", "p.i.", "cl", "cl.", "c.", "pl.", "pasaje", "lg.", "cta.",
                              "urbanizacion", "urb", "urb.", "alameda", "rambla", "glorieta", "callejon",
                              "poligono", "poligono industrial", "bulevar", "bo.", "ronda", "vía", "pg."})


def _hospital_words(pack: LanguagePack, propers: Sequence[str], names: frozenset[str]) -> tuple[str, ...]:
    """The last words of hospitals' proper parts that can stand for the hospital: of five
    letters or more, each the last word of one or two proper parts only, and no word of the
    language, given name, month or place (``names``: folded towns and stop words) — "Trueta",
    "Valdecilla", "Arrixaca", "Espases"; not "Sofía", "Rocío", "Octubre", "Haya"."""
    from .lexicon import lexicon

    counts: dict[str, int] = {}
    for proper in propers:
        last = proper.split()[-1]
        counts[last] = counts.get(last, 0) + 1
    given = folded_entries(pack, ("given_name",)) if "given_name" in pack.tables else frozenset()
    surnames = frozenset(fold(name) for name, count in zip(pack.table("surname").column("name"),
                                                           pack.table("surname").column("count"), strict=True)
                         if _count(count) >= _COMMON_SURNAME) if "surname" in pack.tables else frozenset()
    # a word of a town's name is the place's more often ("Mairena del Aljarafe", "Sant Cugat")
    town_words = frozenset(w for name in names for w in name.split())
    out = []
    for word, n in counts.items():
        key = fold(word)
        if (n > 2 or len(word) < 5 or not word[:1].isupper() or not word[1:].islower() or key in town_words
                or key in given or key in surnames or key in _REGIONAL_WORDS
                or pack.month(word, regional=False) is not None):
            continue
        try:
            if lexicon().is_known(word.lower(), pack.language):
                continue
        except ValueError:  # no word list for the language: no word is told from a name
            return ()
        out.append(word)
    return tuple(sorted(out))


#: Bearers from which a surname is a person's more often than a hospital's ("Méndez", "Ochoa").
_COMMON_SURNAME = 1000
#: Catalan and Basque words of hospitals' names that the Spanish dictionary does not know
#: ("Família" of "… de la Sagrada Família", "Ospitalea"): no note calls a hospital by one alone.
_REGIONAL_WORDS = frozenset({"familia", "hospitalari", "sociosanitari", "horta", "llevant", "ponent",
                             "limit", "forum", "curacio", "evangelic", "fundazioa", "ospitalea",
                             "international"})  # "Hc Marbella International Hospital"
#: A facility's name as a span starts it: "Hospital …", "Clínica …", "Complejo Hospitalario …".
_FACILITY_START = regex.compile(r"(?i:hospital|clínica|clinica|complejo|complexo|centro|fundación|institut)")
#: A capitalised word alone: not followed by another capitalised word, a particle and one, a
#: hyphen, an apostrophe or a digit ("del Trueta el 15/12", not "del Trueta Soler").
_ALONE = regex.compile(r"(?P<word>\p{Lu}\p{Ll}+)(?![\p{L}\p{N}'’-]|[ \t]+(?:(?:de|del|la|y)[ \t]+)?\p{Lu})")


def _hospital_propers(
    pack: LanguagePack, towns: frozenset[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The proper parts of the pack's hospital names: the name less its type and qualifiers
    (the pack's ``facility_types`` forms, before it or after it: "Fundación Onkologikoa
    Fundazioa"), its connectors and initials ("Hospital General Universitario J.M. Morales
    Meseguer" -> "Morales Meseguer"); the parts of two capitalised words or more that are no
    town ("Santiago de Compostela") and no other hospital's type, and, apart, the one word
    before a type after it ("Onkologikoa"), for the words a hospital is called by alone."""
    if "hospital" not in pack.tables:
        return (), ()
    forms = sorted({fold(f) for fs in pack.facility_types.values() for f in fs}, key=len, reverse=True)
    quals = ("universitario", "universitaria", "universitari", "general", "clinico", "clinic", "comarcal",
             "provincial", "regional")
    out: set[str] = set()
    singles: set[str] = set()
    for name in pack.table("hospital").entries:
        rest = name
        changed = True
        while changed:
            changed = False
            folded = fold(rest)
            for form in [*forms, *quals]:
                if folded.startswith(form + " "):
                    rest, changed = rest[len(form) + 1 :], True
                    break
            head = _PROPER_HEAD.match(rest)
            if head is not None and head.end():
                rest, changed = rest[head.end() :], True
        last = rest.rsplit(" ", 1)
        typed_after = len(last) == 2 and fold(last[1]) in forms
        if typed_after:  # a type after the name, as Basque writes it ("Onkologikoa Fundazioa")
            rest = last[0]
        parts = rest.split()
        if typed_after and len(parts) == 1 and rest[:1].isupper() and fold(rest) not in towns:
            singles.add(rest)  # only a name its type follows: one word before a type is the name
        elif (len(parts) >= 2
              and all(w[:1].isupper() or w in ("de", "del", "la", "las", "los") for w in parts)
                and parts[-1][:1].isupper() and fold(rest) not in towns and len(rest) >= 8
                and not _ODD.search(rest)):
            out.add(rest)
    return tuple(sorted(out)), tuple(sorted(singles))


#: Connectors and initials at the start of a hospital's proper part ("de ", "J.M. ").
_PROPER_HEAD = regex.compile(r"(?:(?:de|del|de la|de los)[ \t]+|(?:\p{Lu}\.)+[ \t]*)")
#: Proper parts that are no name a note would use: company suffixes, punctuation.
_ODD = regex.compile(r"[,;()\"“”]|\bS\.?\s?[AL]\b|\.-")


def _count(value: str | None) -> float:
    try:
        return float(value or 0)
    except ValueError:
        return 0.0


def _streets(step: LonePlaces, text: str, taken: list[tuple[int, int]],
             spans: Sequence[Span] = ()) -> list[Span]:
    label = dict(step.labels).get("street")
    if not label or not step.street_types:
        return []
    lower = typed_in_lower_case(text)
    pattern = _STREETS.get((step.street_types, lower))
    if pattern is None:
        pattern = _STREETS[(step.street_types, lower)] = _street_pattern(step.street_types, lower)
    # a place the tagger found inside the street's name gives way to the street ("España" of
    # "Pza. de España 4, 2º izda.", which had become a country and left the street in clear);
    # a street the tagger found stays as it found it, unless cut after a particle ("Avda. del"
    # of "Avda. del Chorrico 88")
    streets = Taken((s.start, s.end) for s in spans if s.label == label
                    and fold((_WORD.findall(text, s.start, s.end) or [""])[-1]) not in _PARTICLES)
    taken = own(taken)
    before = len(taken)  # the ranges taken before this step: ``found`` adds to them
    found = [Span(m.start(), m.end(), label, source=STREET_SOURCE)
             for m in pattern.finditer(text)
             if _within(taken, m.start(), m.end()) and not overlaps(streets, m.start(), m.end())
             and not (lower and _ordinary_name(step, m.group())) and not con_acronyms(m.group())]
    if not lower and (lines := lower_case_lines(text)):
        # a line typed in lower case in a note that is not ("vive solo en sabiñanigo (c/ serrablo
        # 31 3izq)" under an on-call note's header: the sixteenth set written blind)
        lowered = _STREETS.get((step.street_types, True))
        if lowered is None:
            lowered = _STREETS[(step.street_types, True)] = _street_pattern(step.street_types, True)
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found += [Span(m.start(), m.end(), label, source=STREET_SOURCE)
                  for start, end in lines for m in lowered.finditer(text, start, end)
                  if m.group()[:1].islower() and _within(taken, m.start(), m.end())
                  and not overlaps(streets, m.start(), m.end())
                  and not _ordinary_name(step, m.group()) and not con_acronyms(m.group())]
    if not lower:  # a type that is also a word, capitalised, with a particle, a name and a number
        # after a comma ("Residencia …, Camino de la Ribera, 4": the seventh set written blind)
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found += [Span(m.start(), m.end(), label, source=STREET_SOURCE)
                  for m in _WORD_TYPED_STREET.finditer(text)
                  if _within(taken, m.start(), m.end()) and not overlaps(streets, m.start(), m.end())]
    if "kalea" in text or "etorbidea" in text or "bidea" in text:
        taken.extend((s.start, s.end) for s in found[len(taken) - before:])
        found += [Span(m.start(), m.end(), label, source=STREET_SOURCE) for m in _BASQUE_STREET.finditer(text)
                  if _within(taken, m.start(), m.end()) and not overlaps(streets, m.start(), m.end())]
    return found


def _sentence_start(text: str, at: int) -> bool:
    """Does a sentence or a line start at ``at`` (nothing but spaces or a bullet after a full
    stop, a colon or a line break)?"""
    before = text[max(0, at - 4) : at].rstrip(" \t-•·>")
    return not before or before[-1] in ".:!?\n"


def _ordinary_name(step: LonePlaces, street: str) -> bool:
    """In a note typed in lower case: does the street's name hold a word of the pack's closed
    lists beyond its particles ("calle y se cayó 3 veces" is no street)?"""
    name = regex.split(r"\d", street, maxsplit=1)[0]  # not the floor and door: "14, bajo"
    words = [fold(w) for w in _WORD.findall(name)[1:]]
    return any(w in step.stop and w not in _PARTICLES for w in words)


#: Compiled street patterns by street types (one pack per process, in practice).
_STREETS: dict[tuple[tuple[str, ...], bool], regex.Pattern[str]] = {}
#: The particles of a street's name.
_PARTICLES = frozenset({"de", "del", "la", "las", "los", "el", "y"})


def _within(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    """May a place span ``[start, end)`` be added: no span touches it, or only spans strictly
    inside it ("LA REINA" of "VIVE EN TALAVERA DE LA REINA", which then give way to it)?"""
    return all(start <= s and e <= end and (s, e) != (start, end) for s, e in overlapping(taken, start, end))


def overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    """Does a taken range overlap [start, end)? (Ranges that only abut do not.)"""
    return bool(overlapping(taken, start, end))

