"""The cells of a table's column whose header names an identifier (invented tables; the first is
the vaccination table of tests/fixtures/es_blind11, whose five lots had leaked)."""

from __future__ import annotations

from pathlib import Path

from crfdeid.langpack import load_pack
from crfdeid.pipeline import load_pipeline
from crfdeid.table_columns import SOURCE, TableColumns, with_table_columns
from crfdeid.types import Document, Span

from .pack_kit import assert_refused

LABELS = {"device": "IDENTIF_DISPOSITIVOS_NRSERIE", "id_patient": "ID_SUJETO_ASISTENCIA",
          "phone": "NUMERO_TELEFONO", "vehicle": "IDENTIF_VEHICULOS_NRSERIE", "id_case": None,
          "id_insurance": "ID_ASEGURAMIENTO", "id_other": "OTRO_NUMERO_IDENTIF"}
STEP = TableColumns.for_pack(load_pack("es"), LABELS)

VACCINES = """Vacunas administradas hoy:

Paciente            Vacuna                           Lote         Vía/lugar
Mamadou L.          Fiebre amarilla                  X3B471V      SC deltoides izq.
Mamadou L.          Fiebre tifoidea polisacárida     W1C882A      IM deltoides der.
Aïssatou            Meningocócica ACWY conjugada     MN4410K      IM deltoides der.
Awa                 Fiebre amarilla                  X3B471V      SC muslo izq.

Hepatitis A: adultos inmunes (serología IgG positiva).
"""


def _found(text: str, spans: list[Span] | None = None) -> list[tuple[str, str]]:
    assert STEP is not None
    return [(text[s.start:s.end], s.label) for s in STEP.spans(text, spans or [])]


def test_a_lot_column_laid_out_with_spaces() -> None:
    device = LABELS["device"]
    assert _found(VACCINES) == [("X3B471V", device), ("W1C882A", device), ("MN4410K", device),
                                ("X3B471V", device)]


def test_a_tab_separated_table_by_cell_index() -> None:
    text = ("Ingresos de la semana\n"
            "Cama\tNHC\tPaciente\tTeléfono de contacto\n"
            "12A\t0048817\tRuiz Gil, Ana\t611 20 43 98\n"
            "14B\t0051230\tPeña Sáez, Luis\t+34 922 41 07 66 ext. 12\n"
            "\n"
            "Sin incidencias: 12 camas.\n")
    assert _found(text) == [("0048817", LABELS["id_patient"]), ("611 20 43 98", LABELS["phone"]),
                            ("0051230", LABELS["id_patient"]),
                            ("+34 922 41 07 66 ext. 12", LABELS["phone"])]


def test_a_cell_without_a_digit_a_detected_span_and_the_rows_after_the_table_are_left() -> None:
    text = ("Dispositivo      Nº de serie       Implantado\n"
            "Marcapasos       PJN417732S        2019\n"
            "Holter           pendiente         -\n"
            "\n"
            "Lote 4471 del catéter en la hoja de enfermería.\n")
    serial = text.index("PJN417732S")
    assert _found(text) == [("PJN417732S", LABELS["device"])]
    detected = [Span(serial, serial + 10, LABELS["device"], source="rule")]
    assert _found(text, detected) == []
    assert with_table_columns(text, detected, STEP) == detected
    assert with_table_columns(text, detected, None) == detected


def test_a_form_of_fields_and_a_sentence_are_no_table() -> None:
    assert _found("NHC: 0048817      Cama: 12A      Lote: X3B471V\n") == []
    assert _found("Se anota el lote y el NHC   en la hoja   X3B471V\n") == []
    # a header word in a line of two cells is no header
    assert _found("Lote      Caducidad\nX3B471V   12/2026\n") == []


def test_a_category_the_scheme_lacks_takes_no_cell() -> None:
    step = TableColumns.for_pack(load_pack("es"), {"device": None})
    assert step is None
    assert TableColumns.for_pack(None, LABELS) is None


def test_the_german_pack_names_its_headers() -> None:
    step = TableColumns.for_pack(load_pack("de"), {"device": "DEVICE", "phone": "PHONE"})
    assert step is not None
    text = "Impfstoff        Ch.-B.        Datum\nComirnaty        FK5127        03.11.2025\n"
    assert [(text[s.start:s.end], s.label) for s in step.spans(text, [])] == [("FK5127", "DEVICE")]


def test_the_pack_is_checked(tmp_path: Path) -> None:
    line = '  vehicle: [matrícula, ambulancia, vehículo, "matrícula ambulancia", "unidad de transporte"]'
    assert_refused(tmp_path, line, [
        ("  vehicles: [matrícula]", "unknown category 'vehicles'"),
        ("  vehicle: matrícula", "must be a list of header words"),
    ])


def test_the_pipeline_reads_the_table_after_the_merge() -> None:
    pipeline = load_pipeline(rules_only=True)
    cells = [(VACCINES[s.start:s.end], s.label) for s in pipeline.detect(Document("n", VACCINES))
             if s.source == SOURCE]
    assert ("W1C882A", LABELS["device"]) in cells and ("MN4410K", LABELS["device"]) in cells


PEOPLE = {**LABELS, "person_patient": "NOMBRE_SUJETO_ASISTENCIA",
          "person_clinician": "NOMBRE_PERSONAL_SANITARIO", "person_relative": "FAMILIARES_SUJETO_ASISTENCIA",
          "profession": "PROFESION"}
PEOPLE_STEP = TableColumns.for_pack(load_pack("es"), PEOPLE)

#: An appointment export parted by ";" (invented; the shape of tests/fixtures/es_blind13's CSV,
#: whose record numbers and names had leaked).
AGENDA = (
    "# Exportación de agenda - separador punto y coma\n"
    "fecha_cita;hora;nhc;paciente;telefono;observaciones\n"
    '21/05/2026;09:10;417220;IBÁÑEZ DE LA ROSA, MARÍA JOSÉ;968 11 20 45;"Traer informe; acude con su hija"\n'
    '21/05/2026;09:30;398004;OUALI, KARIM (KIKO);+34 600 12 34 56;"Sin incidencias"\n'
    "21/05/2026;09:50;401873;el paciente;;\n"
    "\n"
    "Total: 3 citas\n"
)


def _people(text: str, spans: list[Span] | None = None) -> list[tuple[str, str]]:
    assert PEOPLE_STEP is not None
    kept, found = PEOPLE_STEP.complete(text, spans or [])
    return [(text[s.start:s.end], s.label) for s in sorted([*kept, *found], key=lambda s: s.start)]


def test_a_table_parted_by_semicolons_by_cell_index_quotes_keeping_a_semicolon() -> None:
    patient, nhc, phone = PEOPLE["person_patient"], PEOPLE["id_patient"], PEOPLE["phone"]
    assert _people(AGENDA) == [
        ("417220", nhc), ("IBÁÑEZ DE LA ROSA, MARÍA JOSÉ", patient), ("968 11 20 45", phone),
        ("398004", nhc), ("OUALI, KARIM", patient), ("+34 600 12 34 56", phone),
        ("401873", nhc),  # "el paciente" is no name
    ]


def test_a_name_cell_takes_the_pieces_detected_inside_it() -> None:
    """The tagger's pieces of a name in capitals (one of them read as a town) give way to the
    cell: one span, the patient's, so the name is replaced whole."""
    start = AGENDA.index("IBÁÑEZ")
    pieces = [Span(start, start + 6, "TERRITORIO", source="crf"),
              Span(start + 22, start + 32, "NOMBRE_PERSONAL_SANITARIO", source="crf")]
    found = _people(AGENDA, pieces)
    assert ("IBÁÑEZ DE LA ROSA, MARÍA JOSÉ", PEOPLE["person_patient"]) in found
    assert ("IBÁÑEZ", "TERRITORIO") not in found


def test_a_table_parted_by_bars_names_its_staff() -> None:
    text = ("Fecha | Medicamento | Código de receta | Lote | Dispensa | Retira\n"
            "02/02/2026 | Metformina 850 mg | 1626020211001 | L25C401 | R. Villalba | el paciente\n")
    assert _people(text) == [("1626020211001", PEOPLE["id_other"]), ("L25C401", PEOPLE["device"]),
                             ("R. Villalba", PEOPLE["person_clinician"])]


def test_a_name_column_of_single_words_is_a_list_of_drugs_not_of_people() -> None:
    text = "Nombre;Dosis;Pauta\nParacetamol;1 g;cada 8 h\nOmeprazol;20 mg;en ayunas\n"
    assert _people(text) == []


def test_a_field_of_the_patients_name_is_the_name_whatever_its_pieces() -> None:
    text = "Persona usuaria: MAÍLLO HERNÁNDEZ, Petra     DNI: 07801624R\nApellidos: Casas A.\nNombre: Luis.\n"
    start = text.index("MAÍLLO")
    pieces = [Span(start, start + 6, "ID_EMPLEO_PERSONAL_SANITARIO", source="crf"),
              Span(text.index("Petra"), text.index("Petra") + 5, "TERRITORIO", source="crf")]
    assert _people(text, pieces) == [("MAÍLLO HERNÁNDEZ, Petra", PEOPLE["person_patient"]),
                                     ("Casas A.", PEOPLE["person_patient"])]  # one word: left to the tagger


def test_a_relatives_field_names_the_relative_before_the_phone() -> None:
    """"Contacto de la familia: Oksana Bondarenko, +34 …" (the eleventh set written blind), which a
    retrained model left in clear; a title before the name is not part of it."""
    text = "Contacto de la familia: Oksana Bondarenko, +34 634 118 902, correo en la ficha.\n" \
           "Cuidadora principal: Sra. Rosa Lema Vidal (hija)\n"
    assert _people(text) == [("Oksana Bondarenko", PEOPLE["person_relative"]),
                             ("Rosa Lema Vidal", PEOPLE["person_relative"])]


def test_a_household_tables_occupations_end_where_they_say_where() -> None:
    """The twelfth set's household table: "ama de casa" tagged as a relative (so kept) and
    "estudiante" untouched had stayed in the output."""
    text = ("Nombre y apellidos          Parentesco     Edad    Ocupación\n"
            "Pilar Soto Ruiz             esposa           79    ama de casa\n"
            "Andrés Gil Soto             hijo             50    tractorista en Agrícola del Sur, S.L.\n"
            "Lucía                       nieta            16    estudiante en el IES Vega Alta\n"
            "Tomás Gil                   nieto             9    -\n")
    start = text.index("ama de casa")
    relative = Span(start, start + 11, PEOPLE["person_relative"], source="crf")
    found = _people(text, [relative])
    work = PEOPLE["profession"]
    assert [v for v, label in found if label == work] == ["ama de casa", "tractorista", "estudiante"]
    assert relative not in found and ("Pilar Soto Ruiz", PEOPLE["person_patient"]) in found


def test_a_cells_pieces_give_way_to_the_cell() -> None:
    """"0040 722 315 604" found as two phones: the international prefix became "4885"."""
    text = "fecha;nhc;telefono;estado\n14/10/2025;331907;0040 722 315 604;Citada\n"
    start = text.index("0040")
    pieces = [Span(start, start + 4, PEOPLE["phone"], source="crf"),
              Span(start + 5, start + 16, PEOPLE["phone"], source="crf")]
    assert _people(text, pieces) == [("331907", PEOPLE["id_patient"]), ("0040 722 315 604", PEOPLE["phone"])]
    # a span running out of the cell keeps it as it is
    wide = [Span(start - 7, start + 4, "OTRO_NUMERO_IDENTIF", source="crf")]
    assert ("0040 722 315 604", PEOPLE["phone"]) not in _people(text, wide)


def test_a_lab_printouts_fields_laid_out_in_columns() -> None:
    """The fourteenth set's lab printout: the patient's field with no colon, its surnames had
    leaked; the line, read as a table's header, had made "Nº PETICIÓN" under it a patient."""
    text = ("PACIENTE      PRIETO DEL RÍO, JOSÉ MARÍA                   NHC        24-1187340\n"
            "F.NAC.        02/08/1949   EDAD 76 A   SEXO V              TIS        LE0291183476\n"
            "PETICIONARIO  Dra. ROBLES ALONSO, EULALIA                  CENTRO     C.S. SAHAGÚN\n"
            "Nº PETICIÓN   2509-260417                                  MUESTRA    S25-0938814\n")
    assert _people(text) == [("PRIETO DEL RÍO, JOSÉ MARÍA", PEOPLE["person_patient"])]


def test_a_name_on_the_line_under_its_heading() -> None:
    """An e-prescription sheet (the fourteenth set written blind): "PACIENTE" alone, the name on
    the next line; a heading over a sentence names no one."""
    text = "PACIENTE\n  DEL CASTILLO Y NAVARRO, JOSÉ MIGUEL\n  CIP autonómico: CANJ580917013024\n"
    assert _people(text) == [("DEL CASTILLO Y NAVARRO, JOSÉ MIGUEL", PEOPLE["person_patient"])]
    assert _people("PACIENTE\nAcude Por Dolor Torácico de dos horas.\n") == []


def test_a_tab_separated_export_read_through_the_pipeline_whose_view_has_no_tabs() -> None:
    # the fifteenth set's pharmacy export: the detection view writes a tab as a space, and every
    # record number and name of its columns had been left in clear; a span over a tab is cut
    text = ("# Exportació del registre de dispensació (TSV)\n"
            "data_hora\tnhc\tcip\tpacient\tmedicament\tlot\tfarmacèutic\tobservacions\n"
            "2025-11-03 09:12\t1047733\tMAGA0560318004\tMARTÍNEZ GARRIGA, ANNA\tadalimumab 40 mg\t1184523\t"
            "Berta Riera Camps\tRecull la pacient.\n"
            "2025-11-04 12:05\t1220954\tELAS0890623001\tEL ASRI, HANANE\tenoxaparina 60 mg\tK5519B\t"
            "Oriol Vilaró Sunyer\tBomba d'insulina.\n")
    pipeline = load_pipeline(rules_only=True)
    found = {(text[s.start:s.end], s.label) for s in pipeline.detect(Document("n", text))}
    for cell, label in (("1047733", "ID_SUJETO_ASISTENCIA"), ("MAGA0560318004", "ID_ASEGURAMIENTO"),
                        ("MARTÍNEZ GARRIGA, ANNA", "NOMBRE_SUJETO_ASISTENCIA"),
                        ("1184523", "IDENTIF_DISPOSITIVOS_NRSERIE"), ("1220954", "ID_SUJETO_ASISTENCIA"),
                        ("EL ASRI, HANANE", "NOMBRE_SUJETO_ASISTENCIA"),
                        ("K5519B", "IDENTIF_DISPOSITIVOS_NRSERIE"),
                        ("Oriol Vilaró Sunyer", "NOMBRE_PERSONAL_SANITARIO")):
        assert (cell, label) in found, cell
    assert all("\t" not in text[s.start:s.end] for s in pipeline.detect(Document("n", text)))


def test_a_forms_name_parts_one_word_each_and_a_dot_led_field() -> None:
    step = load_pipeline(rules_only=True).completion.table_columns
    assert step is not None
    text = ("Primer apellido: OLMEDO      Segundo apellido: REBOLLO      Nombre: VALENTINA\n"
            'Nombre ............. AURELIO (en casa le llaman "Yeyo")\n'
            "Nombre: Desconocido      Primer apellido: Pendiente\n")
    crossing = Span(text.index("OLMEDO"), text.index("Segundo") + 7, "NOMBRE_PERSONAL_SANITARIO")
    kept, found = step.complete(text, [crossing])
    assert [(text[s.start:s.end], s.label) for s in found] == [
        ("OLMEDO", "NOMBRE_SUJETO_ASISTENCIA"), ("REBOLLO", "NOMBRE_SUJETO_ASISTENCIA"),
        ("VALENTINA", "NOMBRE_SUJETO_ASISTENCIA"), ("AURELIO", "NOMBRE_SUJETO_ASISTENCIA")]
    assert kept == []  # "OLMEDO      Segundo" gave way to the field's value


def test_a_header_word_with_what_it_is_of_and_an_ambulance_column() -> None:
    text = ("| Fecha      | Monitor n.º serie | Lote dializador | Peso  | Ambulancia |\n"
            "|------------|-------------------|-----------------|-------|------------|\n"
            "| 03/11/2025 | 5008S-41X2291     | L2510447        | 78,4  | 4821 KZP   |\n"
            "| 05/11/2025 | 5008S-41X2291     | L2510519        | 77,9  | 0377 LGD   |\n")
    step = load_pipeline(rules_only=True).completion.table_columns
    assert step is not None
    found = [(text[s.start:s.end], s.label) for s in step.spans(text, [])]
    device, plate = "IDENTIF_DISPOSITIVOS_NRSERIE", "IDENTIF_VEHICULOS_NRSERIE_PLACAS"
    assert found == [("5008S-41X2291", device), ("L2510447", device), ("4821 KZP", plate),
                     ("5008S-41X2291", device), ("L2510519", device), ("0377 LGD", plate)]


def test_a_span_over_a_tab_is_cut_into_its_cells_and_a_row_of_values_is_no_phone() -> None:
    from crfdeid.pipeline import _cut_at_tabs

    text = ("Fecha\tAyunas\tComida\tCena\n19/09\t97\t119\t136\t141\nBerta Riera Camps\tRecull la pacient\n"
            "Dra. Pastor\tBaeza Ruiz\n")
    row = Span(text.index("119"), text.index("141") + 3, "NUMERO_TELEFONO")
    name = Span(text.index("Berta"), text.index("Recull") + 6, "NOMBRE_PERSONAL_SANITARIO")
    two = Span(text.index("Pastor"), text.index("Ruiz") + 4, "NOMBRE_PERSONAL_SANITARIO")
    common = {"recull", "la", "pacient"}.__contains__
    cut = _cut_at_tabs(text, [row, name, two], {"NUMERO_TELEFONO"}, {"NOMBRE_PERSONAL_SANITARIO"},
                       lambda word: common(word.lower()))
    assert [text[s.start:s.end] for s in cut] == ["Berta Riera Camps", "Pastor", "Baeza Ruiz"]


PLACES_STEP = TableColumns.for_pack(load_pack("es"), {
    **PEOPLE, "town": "TERRITORIO", "id_employee": "ID_EMPLEO_PERSONAL_SANITARIO",
    "ip": "DIREC_PROT_INTERNET"})

#: A mainframe admissions listing (invented; the shape of tests/fixtures/es_blind16's, whose record
#: numbers, names and towns had leaked): one-space gaps, a ruler under the header, names cut.
LISTING = """NHC      APELLIDOS, NOMBRE        S ED  F.INGRESO SERV CAMA   MUNICIPIO RESIDENCIA
-------- ------------------------ - --- --------- ---- ------ ----------------------
01447102 BARREIRO CASTIÑEIRA, MAN V  64 03/11/26  MIN  0512-A ZAS
00822931 OTERO FIGUEIRAS, CARMEN  M  91 04/11/26  NML  0803-B VIMIANZO
02115870 MOURE LEMA, XOSE         V  38 05/11/26  TRA  0401-B LARACHA (A)
================================================================================================
TOTAL: 0003
"""


def test_a_listing_is_read_by_the_ruler_under_its_header() -> None:
    cells = [(LISTING[s.start : s.end], s.label) for s in with_table_columns(LISTING, [], PLACES_STEP)
             if s.source == SOURCE]
    assert cells == [
        ("01447102", "ID_SUJETO_ASISTENCIA"), ("BARREIRO CASTIÑEIRA, MAN", "NOMBRE_SUJETO_ASISTENCIA"),
        ("ZAS", "TERRITORIO"), ("00822931", "ID_SUJETO_ASISTENCIA"),
        ("OTERO FIGUEIRAS, CARMEN", "NOMBRE_SUJETO_ASISTENCIA"), ("VIMIANZO", "TERRITORIO"),
        ("02115870", "ID_SUJETO_ASISTENCIA"), ("MOURE LEMA, XOSE", "NOMBRE_SUJETO_ASISTENCIA"),
        ("LARACHA (A)", "TERRITORIO")]  # nothing of the total below the rule


def test_a_span_running_out_of_a_listings_cell_gives_way() -> None:
    at = LISTING.index("CARMEN")
    crossing = Span(at, LISTING.index("91") + 2, "CALLE", source="crf")  # "CARMEN  M  91" as a street
    out = with_table_columns(LISTING, [crossing], PLACES_STEP)
    assert crossing not in out and any(LISTING[s.start : s.end] == "OTERO FIGUEIRAS, CARMEN" for s in out)


AUDIT = """FECHA_HORA           USUARIO  IP_ORIGEN       PUESTO         ACCION              NHC
2026-10-14 02:41:09  U20417   10.52.7.31      ALC-URG-PC04   ALTA_EPISODIO_URG   0398127
2026-10-15 12:04:17  AP4471   83.57.190.12    VPN-REMOTO     CONSULTA_HISTORIA   0398127
"""


def test_an_access_logs_users_and_addresses_by_their_columns() -> None:
    cells = {(AUDIT[s.start : s.end], s.label) for s in with_table_columns(AUDIT, [], PLACES_STEP)
             if s.source == SOURCE}
    assert {("U20417", "ID_EMPLEO_PERSONAL_SANITARIO"), ("AP4471", "ID_EMPLEO_PERSONAL_SANITARIO"),
            ("10.52.7.31", "DIREC_PROT_INTERNET"), ("0398127", "ID_SUJETO_ASISTENCIA")} <= cells
    assert not any(text.startswith("ALC-") for text, _ in cells)  # a workstation's column: no header word


def test_a_doppler_tables_pulsatility_index_is_no_address_and_no_town_is_a_stock_phrase() -> None:
    # the round's review: "IP" (pulsatility index) read as IP addresses, "RESIDENCIA" cells as towns
    doppler = ("Vaso            IP      IR      Percentil\n"
               "A. umbilical    1,12    0,68    p50\n"
               "ACM             1,85    0,81    p45\n")
    assert not [s for s in with_table_columns(doppler, [], PLACES_STEP) if s.source == SOURCE]
    ward = ("NHC       PACIENTE                 MUNICIPIO       CAMA\n"
            "00412298  SOUTO CAAMAÑO, ERUNDINA  NO CONSTA       0618-A\n"
            "02301176  RIAL FERREIRO, MARÍA     PONTECESO       0322-A\n")
    found = with_table_columns(ward, [], PLACES_STEP)
    towns = [ward[s.start : s.end] for s in found if s.label == "TERRITORIO"]
    assert towns == ["PONTECESO"]


def test_a_data_frame_printed_by_pandas_reads_its_right_aligned_columns() -> None:
    # a Jupyter notebook of home visits (the nineteenth set written blind): pandas right-aligns
    # each column, so a record number starts under the column before its header
    step = TableColumns.for_pack(load_pack("es"), {**LABELS, "town": "TERRITORIO"})
    assert step is not None
    frame = (
        "            fecha      nhc   edad  sexo            pedania            motivo\n"
        "    0  2026-10-01  2207815     88     H            Benizar   curas UPP sacra\n"
        "    1  2026-10-01  2231904     79     M         El Sabinar       control INR\n"
        "    3  2026-10-05  2215563     72     H  Calar de la Santa          INR + TA\n")
    found = [(frame[s.start:s.end], s.label) for s in step.spans(frame, [])]
    assert [v for v, label in found if label == "ID_SUJETO_ASISTENCIA"] == ["2207815", "2231904", "2215563"]
    towns = [v for v, label in found if label == "TERRITORIO"]
    assert towns == ["Benizar", "El Sabinar", "Calar de la Santa"]
    assert not any(v.startswith("2026") for v, _ in found)  # the dates stay the dates'


def test_a_booking_code_under_a_ticket_column() -> None:
    table = ("Fecha      | Trayecto                     | Medio        | Billete | Importe\n"
             "06/10/2026 | Hermigua – Los Cristianos    | taxi + barco | GM7Q2K  | 58,40 €\n"
             "07/10/2026 | Los Cristianos – Hermigua    | barco + taxi | HX5C1W  | 58,40 €\n")
    assert [v for v, label in _found(table) if label == LABELS["id_other"]] == ["GM7Q2K", "HX5C1W"]


def test_a_row_named_by_an_identifier_in_a_table_laid_out_the_other_way_round() -> None:
    # a ticket comparing two records of one patient (the nineteenth set written blind): each
    # row a field, each column a record
    table = ("||Campo||Historia 1 (correcta)||Historia 2 (duplicada)||\n"
             "|NHC|4402781|9917340|\n"
             "|Nombre|RUIZ DE GAUNA PÉREZ, José María|RUIZ DE GAUNA PEREZ, Jose M.|\n"
             "|Teléfono|945 60 01 37|945 60 01 37|\n")
    found = _found(table)
    assert [v for v, label in found if label == LABELS["id_patient"]] == ["4402781", "9917340"]
    assert [v for v, label in found if label == LABELS["phone"]] == ["945 60 01 37", "945 60 01 37"]
    # a header row of an ordinary table names its columns, no values
    assert _found("|NHC|Nombre|Fecha|\n|1234567|Ana Gil|03/04/2025|\n") == [("1234567", LABELS["id_patient"])]
