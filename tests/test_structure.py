"""A structure's markup, which detection never spans, is left alone by the pseudonymiser too."""

from __future__ import annotations

from crfdeid.merge import with_read
from crfdeid.pipeline import load_pipeline
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.structure import PdfFormFields, TimeZones, markup
from crfdeid.types import Document, Span

EXIF = """Fotos de la úlcera: salida de exiftool.

======== /mnt/teleconsulta/WhatsApp Image 2025-05-17 at 19.04.55.jpeg
ExifTool Version Number         : 12.76
File Name                       : WhatsApp Image 2025-05-17 at 19.04.55.jpeg
Make                            : samsung
Camera Model Name               : Galaxy Tab Active5
Image Description               : foto que manda su hija Rocío (608 72 12 62)
Image Size                      : 1200x1600
"""


def _spans(text: str, *marked: tuple[str, str]) -> tuple[Span, ...]:
    out = []
    for label, value in marked:
        at = text.index(value)
        out.append(Span(at, at + len(value), label))
    return tuple(out)


def test_the_markup_of_a_metadata_listing() -> None:
    found = {EXIF[a:b] for a, b in markup(EXIF)}
    assert {"File Name", "Image Description", "Image Size", "Make", "samsung"} <= found
    assert markup("Paciente de 45 años, vive en Image con su hija.") == []  # prose: no markup


def test_a_second_mention_inside_a_listing_s_keys_stays() -> None:
    # "Image" of the file name, read as a town, had become "Navalmoral de la Mata" in every
    # "Image Description" key (the eighteenth set written blind)
    text = EXIF + "Se avisa de que el campo Image Description guarda datos.\n"
    doc = Document("exif", text, _spans(text, ("TERRITORIO", "Image"), ("NUMERO_TELEFONO", "608 72 12 62")))
    result = Pseudonymiser(seed=3).pseudonymise(doc)
    out = result.document.text
    assert "Image Description               :" in out and "Image Size                      :" in out
    assert "608 72 12 62" not in out
    # outside the markup the second mentions are replaced as before: the file name's, the prose's
    assert out.count("Image") == 2
    # the keys' "Image" is still a leftover: held for a reader, never released unnoticed
    assert {x.label for x in result.leftovers} == {"TERRITORIO"}


def test_a_time_zone_is_no_place() -> None:
    # an iCalendar's "X-WR-TIMEZONE:Europe/Madrid" had become "Fuente de Cantos/Badajoz" (the
    # seventeenth set written blind): a time zone's name is a setting, never where someone is
    text = ("X-WR-TIMEZONE:Europe/Madrid\nDTSTART;TZID=Atlantic/Canary:20261112T081500\n"
            "TZ=America/Argentina/Buenos_Aires; vive en Madrid.\n")
    zones = {text[a:b] for a, b in markup(text)}
    assert zones == {"Europe/Madrid", "Atlantic/Canary", "America/Argentina/Buenos_Aires"}
    at = text.rindex("Madrid")  # the town the note names, which the tagger found
    doc = Document("ics", text, (Span(at, at + len("Madrid"), "TERRITORIO"),))
    out = Pseudonymiser(seed=3).pseudonymise(doc).document.text
    assert out.startswith("X-WR-TIMEZONE:Europe/Madrid\n") and "vive en Madrid" not in out
    assert markup("Madrid/Barcelona, Europa/Madrid") == []  # no zone's area: places


def test_detection_takes_no_span_in_a_time_zone() -> None:
    text = "X-WR-TIMEZONE:Europe/Madrid\nvive en Madrid"
    inside = Span(text.index("Madrid"), text.index("Madrid") + 6, "TERRITORIO")
    town = Span(text.rindex("Madrid"), len(text), "TERRITORIO")
    assert with_read(text, [inside, town], TimeZones()) == [town]
    assert load_pipeline(rules_only=True).completion.zones is not None  # a step of every pipeline


PDF_FORM = """FieldName: form.titulo
FieldValue: SOLICITUD DE HEMODI&#193;LISIS EN TR&#193;NSITO
FieldName: origen.nefrologo
FieldType: Choice
FieldValue: Dra. Roc&#237;o Valbuena Arranz (col. 373791546)
FieldStateOption: Dr. Pedro Sanz Gil
FieldName: estancia.localidad
FieldValue: S&#243;ller (Mallorca, Illes Balears)
"""


def test_a_pdf_forms_field_dump_keeps_its_field_names() -> None:
    # the nineteenth set written blind: "FieldName: form.titulo" had its "form" read as an
    # e-mail address and replaced in every field's name; the values are the form's
    names = {PDF_FORM[a:b] for a, b in markup(PDF_FORM)}
    assert {"form.titulo", "origen.nefrologo", "FieldValue", "Choice", "FieldStateOption"} <= names
    assert not any("Roc" in n or "ller" in n or "Sanz" in n for n in names)  # the form's values, options
    form = "form"  # a detected span in a field's name gives way
    at = PDF_FORM.index(form)
    assert with_read(PDF_FORM, [Span(at, at + 4, "CORREO_ELECTRONICO")], PdfFormFields()) == []
    assert PdfFormFields().read("Paciente con FieldName: x en la nota") == ([], [])  # one line: no dump
