"""A machine export's values read by their keys (invented exports, none of the fifteenth set's:
an INI file of a sleep-apnoea device, a plain JSON of a home-care app, a YAML of a clinical
study; and prose, which is no export)."""

from __future__ import annotations

from crfdeid.key_values import CATEGORIES, SOURCE, KeyValues
from crfdeid.schemes import load_scheme

SCHEME = load_scheme("meddocan")
STEP = KeyValues.for_scheme({c: SCHEME.label_for(c) for c in CATEGORIES})

INI = """; Exportación del equipo de CPAP - no editar
[device]
model = AirSense 10 AutoSet
serial_number = 23181944713
firmware = SX567-0401
[patient]
first_name = Remedios
last_name = Carballo Iglesias
birth_date = 14/03/1952
phone_number = 986 41 22 07
city = Vilagarcía de Arousa
postal_code = 36600
[prescriber]
name = Dr. Xoán Lema Outeiro
licence_number = 363614882
[session]
last_upload_at = 2025-09-30T06:12:44Z
upload_ip = 88.12.201.17
"""

JSON = """{
  "export_id": "HC-APP-20251002-771",
  "created_at": "2025-10-02T08:00:00+02:00",
  "patient": {
    "fullName": "Ignacio Bermejo Lanza",
    "nickname": "Nacho",
    "nhc": "00451877",
    "address": {"street": "Calle Alcalde Sáinz de Baranda 12, 4.º B", "city": "Madrid", "zip": "28009"},
    "emergencyContact": {"name": "Lucía Bermejo Ortega", "relationship": "hija", "mobile": "+34 611 208 334"}
  },
  "caregiver_visits": [
    {"visit_date": "2025-09-29", "nurse": {"name": "Mónica Pizarro"}, "employee_id": "SERMAS-55012"}
  ],
  "app": {"platform": "Android", "version": "3.2.1", "device_name": "Galaxy Tab"}
}"""

YAML = """study:
  protocol: "ONCO-PULM-07"
  site:
    name: "Complejo Hospitalario de Navarra"
    city: Pamplona
  participant:
    given_name: Itziar
    family_name: "Goñi Ezkurra"
    occupation: "pastelera"
    sex: F
    age_years: 58
  study_nurse:
    name: Aitor Zabaleta   # coordinador
    email: azabaleta@navarra-ejemplo.es
  entered_by: "igoni"
"""


def _found(text: str) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text)]


def test_an_ini_export_by_its_keys_and_sections() -> None:
    assert _found(INI) == [
        ("23181944713", "IDENTIF_DISPOSITIVOS_NRSERIE"), ("Remedios", "NOMBRE_SUJETO_ASISTENCIA"),
        ("Carballo Iglesias", "NOMBRE_SUJETO_ASISTENCIA"), ("14/03/1952", "FECHAS"),
        ("986 41 22 07", "NUMERO_TELEFONO"), ("Vilagarcía de Arousa", "TERRITORIO"), ("36600", "TERRITORIO"),
        ("Xoán Lema Outeiro", "NOMBRE_PERSONAL_SANITARIO"), ("363614882", "ID_TITULACION_PERSONAL_SANITARIO"),
        ("2025-09-30T06:12:44Z", "FECHAS"), ("88.12.201.17", "DIREC_PROT_INTERNET"),
    ]
    assert all(s.source == SOURCE for s in STEP.spans(INI))


def test_a_json_export_whose_names_follow_the_keys_above_them() -> None:
    assert _found(JSON) == [
        ("2025-10-02T08:00:00+02:00", "FECHAS"), ("Ignacio Bermejo Lanza", "NOMBRE_SUJETO_ASISTENCIA"),
        ("Nacho", "NOMBRE_SUJETO_ASISTENCIA"), ("00451877", "ID_SUJETO_ASISTENCIA"),
        ("Calle Alcalde Sáinz de Baranda 12, 4.º B", "CALLE"), ("Madrid", "TERRITORIO"),
        ("28009", "TERRITORIO"), ("Lucía Bermejo Ortega", "FAMILIARES_SUJETO_ASISTENCIA"),
        ("+34 611 208 334", "NUMERO_TELEFONO"), ("2025-09-29", "FECHAS"),
        ("Mónica Pizarro", "NOMBRE_PERSONAL_SANITARIO"), ("SERMAS-55012", "ID_EMPLEO_PERSONAL_SANITARIO"),
    ]
    _, blocked = STEP.read(JSON)
    covered = "".join(JSON[a:b] for a, b in blocked)
    assert '"platform"' in covered and "Android" in covered and "Galaxy Tab" in covered
    assert "Nacho" not in covered


def test_a_yaml_export_with_comments_quotes_and_a_user_name() -> None:
    assert _found(YAML) == [
        ("Complejo Hospitalario de Navarra", "HOSPITAL"), ("Pamplona", "TERRITORIO"),
        ("Itziar", "NOMBRE_SUJETO_ASISTENCIA"), ("Goñi Ezkurra", "NOMBRE_SUJETO_ASISTENCIA"),
        ("pastelera", "PROFESION"), ("F", "SEXO_SUJETO_ASISTENCIA"), ("58", "EDAD_SUJETO_ASISTENCIA"),
        ("Aitor Zabaleta", "NOMBRE_PERSONAL_SANITARIO"),
        ("azabaleta@navarra-ejemplo.es", "CORREO_ELECTRONICO"),
        ("igoni", "NOMBRE_PERSONAL_SANITARIO"),
    ]


def test_prose_and_a_forms_fields_are_no_export() -> None:
    assert STEP is not None
    note = ("Nombre: Ana Ruiz\nEdad: 45\nDomicilio: Calle Mayor 3\nTeléfono: 600 000 000\n"
            "Motivo: dolor torácico\nJuicio clínico: angina estable\n")
    assert STEP.read(note) == ([], [])
    assert STEP.read("Paciente de 45 años, ratio: 3, name: none.") == ([], [])


def test_a_de_identified_yaml_keeps_its_keys_and_program_words() -> None:
    from crfdeid.deidentify import Deidentifier

    out = Deidentifier(rules_only=True, seed=2).deidentify(YAML).text
    for original in ("Itziar", "Goñi Ezkurra", "pastelera", "Aitor Zabaleta", "azabaleta", "igoni"):
        assert original not in out, original
    keys = [line.split(":", 1)[0] for line in YAML.splitlines()]
    assert [line.split(":", 1)[0] for line in out.splitlines()] == keys
    assert 'protocol: "ONCO-PULM-07"' in out and "   # coordinador" in out


#: An emergency department's event stream, one JSON record a line (invented; the shape of
#: tests/fixtures/es_blind16's, whose user codes, licence and occupation had stayed in clear).
NDJSON = (
    '{"ts":"2026-03-02T10:11:00+01:00","evento":"registro_admision","episodio":"URG-26-004411",'
    '"usuario":"ADM0071","paciente":{"nhc":"HCA-0112233","nombre":"Yusuf","apellidos":"Benali Rahmani",'
    '"ocupacion":"tractorista","telefono":"688 100 200"}}\n'
    '{"ts":"2026-03-02T10:20:00+01:00","evento":"triaje","episodio":"URG-26-004411","nivel":3,'
    '"enfermera":"Rocío Vera Pozo","usuario":"ENF2271"}\n'
    '{"ts":"2026-03-02T10:40:00+01:00","evento":"valoracion","medico":"Tomás Gil Ayala",'
    '"colegiado":"101003318"}\n'
)

#: A lab order as a hospital system's own XML (not CDA, not FHIR).
XML = """<?xml version="1.0" encoding="UTF-8"?>
<peticionLaboratorio version="3.2">
  <cabecera>
    <numeroPeticion>PET-26-0931184</numeroPeticion>
    <sistemaEmisor ip="10.118.4.57" usuario="SES-77120"/>
  </cabecera>
  <paciente>
    <nombre>Maria da Conceição</nombre>
    <apellido1>Rosado</apellido1>
    <apellido2>Caeiro</apellido2>
    <identificadores>
      <id tipo="TSI">1006294817</id>
      <id tipo="NHC">HUB-00736114</id>
    </identificadores>
    <domicilio><via>Calle Fuente Vieja, 14</via>
      <localidad cp="06100">San Jorge de Alor</localidad></domicilio>
    <ocupacion>costurera jubilada</ocupacion>
    <contacto parentesco="hija"><nombre>Ana Isabel Vaz Rosado</nombre>
      <telefono>+351 912 447 308</telefono></contacto>
  </paciente>
  <solicitante><nombre>Bernardino Gallardo Píriz</nombre><colegiado>060604418</colegiado></solicitante>
  <prioridad>ordinaria</prioridad>
</peticionLaboratorio>
"""


def test_an_event_stream_of_json_records_is_read_record_by_record() -> None:
    found = _found(NDJSON)
    for pair in [("ADM0071", "ID_EMPLEO_PERSONAL_SANITARIO"), ("HCA-0112233", "ID_SUJETO_ASISTENCIA"),
                 ("Benali Rahmani", "NOMBRE_SUJETO_ASISTENCIA"), ("tractorista", "PROFESION"),
                 ("ENF2271", "ID_EMPLEO_PERSONAL_SANITARIO"),
                 ("Rocío Vera Pozo", "NOMBRE_PERSONAL_SANITARIO"),
                 ("101003318", "ID_TITULACION_PERSONAL_SANITARIO")]:
        assert pair in found, pair  # the second and third records too, not the first alone


def test_an_xml_export_by_its_elements_attributes_and_kinds() -> None:
    found = _found(XML)
    for pair in [("PET-26-0931184", "ID_CONTACTO_ASISTENCIAL"), ("10.118.4.57", "DIREC_PROT_INTERNET"),
                 ("SES-77120", "ID_EMPLEO_PERSONAL_SANITARIO"), ("Caeiro", "NOMBRE_SUJETO_ASISTENCIA"),
                 ("1006294817", "ID_ASEGURAMIENTO"), ("HUB-00736114", "ID_SUJETO_ASISTENCIA"),
                 ("Calle Fuente Vieja, 14", "CALLE"), ("06100", "TERRITORIO"),
                 ("San Jorge de Alor", "TERRITORIO"), ("costurera jubilada", "PROFESION"),
                 ("Ana Isabel Vaz Rosado", "FAMILIARES_SUJETO_ASISTENCIA"),
                 ("Bernardino Gallardo Píriz", "NOMBRE_PERSONAL_SANITARIO"),
                 ("060604418", "ID_TITULACION_PERSONAL_SANITARIO")]:
        assert pair in found, pair
    assert ("ordinaria", "PROFESION") not in found and not any(text == "3.2" for text, _ in found)
    _, blocked = STEP.read(XML)
    covered = "".join(XML[a:b] for a, b in blocked)
    assert "<apellido2>" in covered and 'tipo="' in covered and "Caeiro" not in covered


def test_a_page_or_a_cda_document_is_no_xml_export() -> None:
    assert STEP.read("<!DOCTYPE html><html><body><p>Nombre: Ana</p></body></html>") == ([], [])


def test_hostile_xml_stays_linear() -> None:
    from crfdeid.key_values import _MAX_DEPTH, _xml_pairs

    pairs, blocked = _xml_pairs('<?xml version="1.0"?>\n' + "<a>" * 50000)
    assert not pairs and len(blocked) <= _MAX_DEPTH + 2  # no export is that deep: reading stops
    pairs, blocked = _xml_pairs('<?xml version="1.0"?>\n<r><a>x</a>' + "<!-- y" * 50000)
    assert len(blocked) <= 8  # an unclosed comment runs to the end, once


def test_a_cdata_sections_words_are_the_notes() -> None:
    # the round's review: a CDATA section was blocked whole, and the phone and relative in it stayed
    xml = ('<?xml version="1.0"?>\n<peticion><paciente><nombre>Juan</nombre><apellido1>Pérez</apellido1>'
           '<apellido2>García</apellido2><sexo>V</sexo><fechaNacimiento>1948-07-22</fechaNacimiento></paciente>'
           '<observaciones><![CDATA[Acompañado de su hija Rosa Pérez Martín, tel 600 123 456.]]>'
           '</observaciones></peticion>')
    _, blocked = STEP.read(xml)
    covered = "".join(xml[a:b] for a, b in blocked)
    assert "<![CDATA[" in covered and "Rosa" not in covered and "600 123 456" not in covered


SQL = """-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)
DROP TABLE IF EXISTS `professionals`;
CREATE TABLE `professionals` (
  `id` int NOT NULL AUTO_INCREMENT,
  `nom_complet` varchar(120) NOT NULL,
  `num_col` varchar(20) DEFAULT NULL,
  `usuari` varchar(20) DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

INSERT INTO `professionals` VALUES
(1,'Joana Maria Prohens Vich','CFIB-1044','jprohens'),
(2,'Bernat Sureda Gelabert','CFIB-1389','bsureda');

CREATE TABLE `pacients` (
  `id` int NOT NULL AUTO_INCREMENT,
  `llinatges` varchar(80) NOT NULL,
  `nom` varchar(60) NOT NULL,
  `data_naix` date DEFAULT NULL,
  `telefon` varchar(20) DEFAULT NULL,
  `notes` text,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

INSERT INTO `pacients` (`id`, `llinatges`, `nom`, `data_naix`, `telefon`, `notes`) VALUES
(101,'Barceló Adrover','Miquel Àngel','1951-06-03','971 58 21 64','Li diuen \\"en Miquelet\\". Va a l\\'H'),
(102,'Obrador Rigo','Margalida','1944-11-20',NULL,'Viu sola');
"""


def test_an_sql_dump_by_its_tables_columns() -> None:
    # the seventeenth set written blind: a physiotherapy clinic's MySQL dump, its staff's names,
    # licences and logins and its patients' rows left in clear
    found = [(SQL[s.start:s.end], s.label) for s in STEP.spans(SQL)]
    assert ("Joana Maria Prohens Vich", "NOMBRE_PERSONAL_SANITARIO") in found
    assert ("CFIB-1389", "ID_TITULACION_PERSONAL_SANITARIO") in found
    assert ("bsureda", "NOMBRE_PERSONAL_SANITARIO") in found  # a login: drawn as a name's letters
    assert ("Barceló Adrover", "NOMBRE_SUJETO_ASISTENCIA") in found
    assert ("Margalida", "NOMBRE_SUJETO_ASISTENCIA") in found
    assert ("1944-11-20", "FECHAS") in found and ("971 58 21 64", "NUMERO_TELEFONO") in found
    # the columns of the INSERT count, an escaped quote ends no value, and free text is the tagger's
    assert not any("Miquelet" in text or "sola" in text for text, _ in found)
    assert all(SQL[s.start - 1] == "'" for s in STEP.spans(SQL))


def test_an_sql_dumps_own_words_take_no_span() -> None:
    # the tagger had read a row's NULL as an organisation, and every "NOT NULL" of the tables'
    # definitions had become "NOT UNED"
    from crfdeid.merge import with_read
    from crfdeid.types import Span

    null = SQL.index("NULL,'Viu")
    defined = SQL.index("NOT NULL")
    spans = [Span(null, null + 4, "INSTITUCION"), Span(defined + 4, defined + 8, "INSTITUCION")]
    kept = with_read(SQL, spans, STEP)
    assert not any(s.label == "INSTITUCION" for s in kept)
    assert any(SQL[s.start:s.end] == "Margalida" for s in kept)


VCARD = """BEGIN:VCARD
VERSION:3.0
FN:Dolores Rodríguez Abreu
N:Rodríguez Abreu;Dolores;;Dña.;
NICKNAME:Lola la de la lonja
BDAY:1939-04-17
ADR;TYPE=HOME:;;Calle Gran Vía\\, 41\\, bajo;Isla Cristina;Huelva;21410;España
TEL;TYPE=HOME,VOICE:+34 959 33 18 62
TITLE:redera jubilada
NOTE:Usuaria del servicio desde marzo de 2021.
END:VCARD
BEGIN:VCARD
VERSION:3.0
FN:Centro de Salud Isla Cristina
TEL;TYPE=WORK:959 02 41 30
TEL;TYPE=FAX:959 02 41 39
END:VCARD
BEGIN:VCALENDAR
ORGANIZER;CN=Nerea Urrestarazu Mendia:mailto:nerea.urrestarazu@posta-ejemplo.eus
END:VCALENDAR
"""


def test_a_vcard_and_a_calendar_by_their_properties() -> None:
    # the seventeenth set written blind: a telecare service's vCards, a family's iCalendar
    found = [(VCARD[s.start:s.end], s.label) for s in STEP.spans(VCARD)]
    assert ("Dolores Rodríguez Abreu", "NOMBRE_SUJETO_ASISTENCIA") in found
    assert ("Rodríguez Abreu", "NOMBRE_SUJETO_ASISTENCIA") in found
    assert ("Dolores", "NOMBRE_SUJETO_ASISTENCIA") in found
    assert ("Calle Gran Vía\\, 41\\, bajo", "CALLE") in found and ("Isla Cristina", "TERRITORIO") in found
    assert ("España", "PAIS") in found and ("redera jubilada", "PROFESION") in found
    assert ("Centro de Salud Isla Cristina", "CENTRO_SALUD") in found  # a facility's card
    assert ("959 02 41 39", "NUMERO_FAX") in found and ("959 02 41 30", "NUMERO_TELEFONO") in found
    assert ("Nerea Urrestarazu Mendia", "FAMILIARES_SUJETO_ASISTENCIA") in found
    assert ("nerea.urrestarazu@posta-ejemplo.eus", "CORREO_ELECTRONICO") in found
    assert not any(text in ("Dña.", "VCARD", "3.0") for text, _ in found)
    # the format's words take no span: "BEGIN:VCARD" had been read as an e-mail address
    from crfdeid.merge import with_read
    from crfdeid.types import Span

    at = VCARD.index("VCARD")
    assert not [s for s in with_read(VCARD, [Span(at, at + 5, "CORREO_ELECTRONICO")], STEP)
                if s.start == at]


EXIF = """Nota: salida de exiftool de la foto adjunta (recortada):

======== /mnt/teleconsulta/IMG_20261124_103512.jpg
ExifTool Version Number         : 12.76
File Name                       : IMG_20261124_103512.jpg
Make                            : samsung
Camera Model Name               : Galaxy Tab Active5
Serial Number                   : R52W70XKQ3M
Owner Name                      : Inmaculada Pons Arjona
Date/Time Original              : 2026:11:24 10:35:12
XP Author                       : rimateos
Image Size                      : 4000x3000
"""


def test_a_metadata_listing_by_its_aligned_keys() -> None:
    # the eighteenth set written blind: ExifTool's output of a wound photo left a tablet's serial
    # number and a nurse's login in clear; its keys have words and spaces, padded to one column
    found = _found(EXIF)
    assert ("R52W70XKQ3M", "IDENTIF_DISPOSITIVOS_NRSERIE") in found
    assert ("rimateos", "NOMBRE_PERSONAL_SANITARIO") in found
    assert not any(text in ("samsung", "Galaxy Tab Active5", "IMG_20261124_103512.jpg", "4000x3000")
                   for text, _ in found)  # a program's words and a file's name: no span
    _, blocked = STEP.read(EXIF)
    covered = "".join(EXIF[a:b] for a, b in blocked)
    assert "Serial Number" in covered and "XP Author" in covered and "R52W70XKQ3M" not in covered
    # a form's fields, a colon right after each key, are no listing
    form = "Nombre: Ana Ruiz\nEdad: 45\nDomicilio: Calle Mayor 3\nTeléfono: 600 000 000\nMotivo: dolor\n"
    assert STEP.read(form) == ([], [])
    # vital signs aligned so are read, and none of their keys says a value is PHI
    assert STEP.spans("Peso : 70\nTalla: 170\nTA   : 120/80\nFC   : 72\nSat  : 98\n") == []
