"""The PHI label set: the categories of the MEDDOCAN annotation guidelines.

``MEDDOCAN_LABELS`` are the 22 labels that occur in the MEDDOCAN corpus (train, dev, test) and
that the evaluator and the tagger score. The guidelines define seven more categories that the
corpus happens not to contain (URLs, IP addresses, device serial numbers…); a rule may still emit
them, because a URL in a real note is PHI whether or not the corpus has an example of one.
"""

from __future__ import annotations

MEDDOCAN_LABELS: tuple[str, ...] = (
    "NOMBRE_SUJETO_ASISTENCIA", "EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA",
    "FAMILIARES_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO", "FECHAS", "PROFESION",
    "HOSPITAL", "CENTRO_SALUD", "INSTITUCION", "CALLE", "TERRITORIO", "PAIS",
    "NUMERO_TELEFONO", "NUMERO_FAX", "CORREO_ELECTRONICO", "ID_SUJETO_ASISTENCIA",
    "ID_CONTACTO_ASISTENCIAL", "ID_ASEGURAMIENTO", "ID_TITULACION_PERSONAL_SANITARIO",
    "ID_EMPLEO_PERSONAL_SANITARIO", "OTROS_SUJETO_ASISTENCIA",
)

#: Guideline categories absent from the corpus; valid rule labels all the same.
EXTRA_GUIDELINE_LABELS: tuple[str, ...] = (
    "URL_WEB", "DIREC_PROT_INTERNET", "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
    "IDENTIF_DISPOSITIVOS_NRSERIE", "NUMERO_BENEF_PLAN_SALUD", "IDENTIF_BIOMETRICOS",
    "OTRO_NUMERO_IDENTIF",
)

GUIDELINE_LABELS: frozenset[str] = frozenset(MEDDOCAN_LABELS + EXTRA_GUIDELINE_LABELS)

