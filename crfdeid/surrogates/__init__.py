"""Surrogate generators, one module per category, and the registry keyed by label.

``build_registry(data, options)`` returns ``{label: generator}`` for every label that has a
realistic surrogate. A label outside the registry has none: the pseudonymiser redacts it (it
never keeps an original it does not know how to replace), and a policy asking to pseudonymise
it is refused when it is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .ages import AgeGenerator
from .base import (
    DocumentState,
    Generator,
    Level,
    Secret,
    Surrogate,
    SurrogateFailure,
    fold,
    normalise,
    too_close,
)
from .contact import EmailGenerator, IpGenerator, PhoneGenerator, UrlGenerator
from .data import SurrogateData, surrogate_data
from .dates import DateGenerator
from .descriptions import DescriptionGenerator
from .facilities import FacilityGenerator
from .identifiers import IdentifierGenerator
from .institutions import InstitutionGenerator
from .kinship import KinshipGenerator
from .people import PeopleGenerator
from .places import CountryGenerator, TerritoryGenerator
from .professions import ProfessionGenerator
from .streets import StreetGenerator

#: Labels whose identifiers are replaced digit for digit, letter for letter.
IDENTIFIER_LABELS = (
    "ID_SUJETO_ASISTENCIA",
    "ID_CONTACTO_ASISTENCIAL",
    "ID_ASEGURAMIENTO",
    "ID_TITULACION_PERSONAL_SANITARIO",
    "ID_EMPLEO_PERSONAL_SANITARIO",
    "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
    "IDENTIF_DISPOSITIVOS_NRSERIE",
    "NUMERO_BENEF_PLAN_SALUD",
    "OTRO_NUMERO_IDENTIF",
)
#: Labels with no realistic surrogate: free-form details (a tattoo, a rare condition),
#: biometrics, and the patient's sex (changing it would contradict the rest of the note).
NO_SURROGATE = ("IDENTIF_BIOMETRICOS", "SEXO_SUJETO_ASISTENCIA")


@dataclass(frozen=True)
class GeneratorOptions:
    """The policy's knobs that generators read."""

    date_shift_min_weeks: int = 53
    date_shift_max_weeks: int = 260
    age_generalise_from: int = 90
    age_perturb_years: int = 0
    age_perturb_from: int = 14
    replace_kinship_terms: bool = False
    keep_home_country: bool = True


def build_registry(data: SurrogateData, options: GeneratorOptions | None = None) -> Mapping[str, Generator]:
    """One generator instance per category, shared by the labels it serves."""
    options = options or GeneratorOptions()
    people = PeopleGenerator(data)
    countries = CountryGenerator(data, options.keep_home_country)
    descriptions = DescriptionGenerator(data, countries, ProfessionGenerator(data))
    identifiers = IdentifierGenerator(data, descriptions)
    phones = PhoneGenerator(data)
    facilities = FacilityGenerator(data)
    territories = TerritoryGenerator(data, countries)
    registry: dict[str, Generator] = {
        "NOMBRE_SUJETO_ASISTENCIA": people,
        "NOMBRE_PERSONAL_SANITARIO": people,
        "FAMILIARES_SUJETO_ASISTENCIA": KinshipGenerator(data, people, options.replace_kinship_terms),
        "FECHAS": DateGenerator(data, options.date_shift_min_weeks, options.date_shift_max_weeks),
        "EDAD_SUJETO_ASISTENCIA": AgeGenerator(
            data, options.age_generalise_from, options.age_perturb_years, options.age_perturb_from
        ),
        "PROFESION": ProfessionGenerator(data),
        "HOSPITAL": facilities,
        "CENTRO_SALUD": facilities,
        "INSTITUCION": InstitutionGenerator(data, territories),
        "CALLE": StreetGenerator(data),
        "TERRITORIO": territories,
        "PAIS": countries,
        "OTROS_SUJETO_ASISTENCIA": descriptions,
        "NUMERO_TELEFONO": phones,
        "NUMERO_FAX": phones,
        "CORREO_ELECTRONICO": EmailGenerator(data),
        "URL_WEB": UrlGenerator(data),
        "DIREC_PROT_INTERNET": IpGenerator(data),
    }
    registry.update(dict.fromkeys(IDENTIFIER_LABELS, identifiers))
    return registry


__all__ = [
    "IDENTIFIER_LABELS",
    "NO_SURROGATE",
    "DocumentState",
    "Generator",
    "GeneratorOptions",
    "Level",
    "Secret",
    "Surrogate",
    "SurrogateData",
    "SurrogateFailure",
    "build_registry",
    "fold",
    "normalise",
    "surrogate_data",
    "too_close",
]
