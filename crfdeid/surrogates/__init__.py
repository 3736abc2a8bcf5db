"""Surrogate generators, one module per category, and how a PHI category finds its generator.

``build_registry(data, options)`` returns ``{label: generator}`` for every MEDDOCAN label that
has a realistic surrogate: generators speak MEDDOCAN labels internally (a patient's name rather
than a clinician's, a fax rather than a phone). Any other scheme reaches them by category:
``CATEGORY_LABELS`` names, for each PHI category (``crfdeid.schemes``), the label its generator
is asked with, ``generator_label`` turns a span's label and category into it, and
``by_category(registry)`` is the category -> generator mapping. A category without a generator
(``NO_GENERATOR``: sex, biometric data, other places) gets its category's strategy from the
policy (a mask by default), never an original, and a policy asking to pseudonymise it is refused
when it is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..schemes import load_scheme
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
#: The MEDDOCAN label each category's generator is asked with (None: no label at all).
CATEGORY_LABELS: dict[str, str | None] = {
    "person_patient": "NOMBRE_SUJETO_ASISTENCIA",
    "person_clinician": "NOMBRE_PERSONAL_SANITARIO",
    "person_other": "NOMBRE_PERSONAL_SANITARIO",  # a person who is not the patient
    "person_relative": "FAMILIARES_SUJETO_ASISTENCIA",
    "kinship": "FAMILIARES_SUJETO_ASISTENCIA",  # kinship words are kept unless the policy says
    "date": "FECHAS",
    "age": "EDAD_SUJETO_ASISTENCIA",
    "sex": "SEXO_SUJETO_ASISTENCIA",  # no generator; the label tells the people generator the sex
    "town": "TERRITORIO",
    "region": "TERRITORIO",
    "street": "CALLE",
    "postal_code": "TERRITORIO",
    "country": "PAIS",
    "hospital": "HOSPITAL",
    "health_centre": "CENTRO_SALUD",
    "organisation": "INSTITUCION",
    "location_other": None,
    "id_patient": "ID_SUJETO_ASISTENCIA",
    "id_case": "ID_CONTACTO_ASISTENCIAL",
    "id_insurance": "ID_ASEGURAMIENTO",
    "id_licence": "ID_TITULACION_PERSONAL_SANITARIO",
    "id_employee": "ID_EMPLEO_PERSONAL_SANITARIO",
    "id_other": "OTRO_NUMERO_IDENTIF",
    "phone": "NUMERO_TELEFONO",
    "fax": "NUMERO_FAX",
    "email": "CORREO_ELECTRONICO",
    "url": "URL_WEB",
    "ip": "DIREC_PROT_INTERNET",
    "vehicle": "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
    "device": "IDENTIF_DISPOSITIVOS_NRSERIE",
    "biometric": "IDENTIF_BIOMETRICOS",
    "profession": "PROFESION",
    "other": "OTROS_SUJETO_ASISTENCIA",
}
#: Categories no generator serves: their spans get the category's strategy from the policy.
NO_GENERATOR = tuple(c for c, label in CATEGORY_LABELS.items() if label is None or label in NO_SURROGATE)


def generator_label(label: str, category: str | None) -> str | None:
    """The label a span's generator is asked with: a MEDDOCAN label of that very category is
    its own (so MEDDOCAN output never changes); any other goes by its category."""
    if category is None:
        return None
    if load_scheme("meddocan").labels.get(label) == category:
        return label
    return CATEGORY_LABELS[category]


def by_category(registry: Mapping[str, Generator]) -> dict[str, Generator]:
    """The category -> generator mapping of a label-keyed registry (categories with none left out)."""
    out = {}
    for category, label in CATEGORY_LABELS.items():
        generator = registry.get(label) if label is not None else None
        if generator is not None:
            out[category] = generator
    return out


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
    descriptions = DescriptionGenerator(data, countries, ProfessionGenerator(data), people)
    dates = DateGenerator(data, options.date_shift_min_weeks, options.date_shift_max_weeks)
    identifiers = IdentifierGenerator(data, descriptions, dates)
    phones = PhoneGenerator(data, countries)
    facilities = FacilityGenerator(data)
    territories = TerritoryGenerator(data, countries)
    registry: dict[str, Generator] = {
        "NOMBRE_SUJETO_ASISTENCIA": people,
        "NOMBRE_PERSONAL_SANITARIO": people,
        "FAMILIARES_SUJETO_ASISTENCIA": KinshipGenerator(data, people, options.replace_kinship_terms),
        "FECHAS": dates,
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
    "CATEGORY_LABELS",
    "IDENTIFIER_LABELS",
    "NO_GENERATOR",
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
    "by_category",
    "fold",
    "generator_label",
    "normalise",
    "surrogate_data",
    "too_close",
]
