"""Build a tiny Spanish POS + lemma model with stanza's own training code, for tests.

Stanza's real models cannot be downloaded in CI, so the tests train a model of a few kilobytes
on a dozen hand-written sentences (``--no_pretrain``: no word vectors needed), write the
minimal ``resources.json`` a Pipeline needs, and load it through the same code path users take.
Training takes a few seconds on a CPU.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# (words, lemmas, UPOS) — small, but every tag the tests look at occurs several times.
SENTENCES = [
    (
        "La paciente ingresó en el hospital .",
        "el paciente ingresar en el hospital .",
        "DET NOUN VERB ADP DET NOUN PUNCT",
    ),
    ("El médico revisó la herida .", "el médico revisar el herida .", "DET NOUN VERB DET NOUN PUNCT"),
    ("Su madre vive en Sevilla .", "su madre vivir en Sevilla .", "DET NOUN VERB ADP PROPN PUNCT"),
    ("María presenta dolor abdominal .", "María presentar dolor abdominal .", "PROPN VERB NOUN ADJ PUNCT"),
    ("Se realizó una ecografía .", "él realizar uno ecografía .", "PRON VERB DET NOUN PUNCT"),
    ("El paciente tiene fiebre .", "el paciente tener fiebre .", "DET NOUN VERB NOUN PUNCT"),
    ("Los análisis fueron normales .", "el análisis ser normal .", "DET NOUN AUX ADJ PUNCT"),
    ("Juan llegó a urgencias .", "Juan llegar a urgencia .", "PROPN VERB ADP NOUN PUNCT"),
    ("La hija acompaña al paciente .", "el hija acompañar al paciente .", "DET NOUN VERB ADP NOUN PUNCT"),
    (
        "Presenta una masa en el hígado .",
        "presentar uno masa en el hígado .",
        "VERB DET NOUN ADP DET NOUN PUNCT",
    ),
    ("El doctor García operó ayer .", "el doctor García operar ayer .", "DET NOUN PROPN VERB ADV PUNCT"),
    ("No refiere alergias conocidas .", "no referir alergia conocido .", "ADV VERB NOUN ADJ PUNCT"),
]


def write_conllu(path: Path) -> None:
    lines = []
    for number, (words, lemmas, tags) in enumerate(SENTENCES, 1):
        lines += [f"# sent_id = {number}", f"# text = {words}"]
        for i, (word, lemma, tag) in enumerate(zip(words.split(), lemmas.split(), tags.split(), strict=True)):
            head, rel = (0, "root") if i == 0 else (1, "dep")
            lines.append(f"{i + 1}\t{word}\t{lemma}\t{tag}\t_\t_\t{head}\t{rel}\t_\t_")
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def build_tiny_model(folder: Path, steps: int = 200, small: bool = True) -> dict[str, Path]:
    """Train a tagger and a dictionary lemmatizer, laid out as a stanza resources folder.

    ``folder`` ends up like a downloaded ``stanza_resources``: ``resources.json`` naming a
    default package "tiny" and ``es/pos/tiny.pt``, ``es/lemma/tiny.pt``, so a Pipeline finds
    the models exactly as it finds real ones. ``small=False`` keeps stanza's default layer sizes
    (a stand-in for timing, still without pretrained word vectors or character models).
    """
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "tiny.conllu"
    write_conllu(data)
    pos_dir, lemma_dir = folder / "es" / "pos", folder / "es" / "lemma"
    sizes = ["--hidden_dim", "32", "--char_hidden_dim", "16", "--word_emb_dim", "16", "--char_emb_dim", "8",
             "--tag_emb_dim", "8", "--deep_biaff_hidden_dim", "16", "--composite_deep_biaff_hidden_dim", "16"]
    common = ["--train_file", str(data), "--eval_file", str(data), "--shorthand", "es_tiny",
              "--mode", "train", "--cpu"]
    tagger = ["--lang", "es", "--no_pretrain", "--save_dir", str(pos_dir), "--save_name", "tiny.pt",
              "--output_file", str(folder / "pos_out.conllu"), "--max_steps", str(steps),
              "--eval_interval", str(min(50, steps)), "--batch_size", "50", "--lr", "0.01", "--seed", "1"]
    lemmatizer = ["--dict_only", "--save_dir", str(lemma_dir), "--save_name", "tiny.pt",
                  "--output_file", str(folder / "lemma_out.conllu")]
    for module, extra in (("stanza.models.tagger", tagger + (sizes if small else [])),
                          ("stanza.models.lemmatizer", lemmatizer)):
        subprocess.run([sys.executable, "-m", module, *common, *extra], check=True, capture_output=True,
                       cwd=folder)
    resources = {"es": {"lang_name": "Spanish",
                        "packages": {"default": {"tokenize": "tiny", "pos": "tiny", "lemma": "tiny"}},
                        "default_processors": {"tokenize": "tiny", "pos": "tiny", "lemma": "tiny"},
                        "tokenize": {"tiny": {}}, "pos": {"tiny": {}}, "lemma": {"tiny": {}}}}
    (folder / "resources.json").write_text(json.dumps(resources), encoding="utf-8")
    return {"model_dir": folder, "pos_model_path": pos_dir / "tiny.pt",
            "lemma_model_path": lemma_dir / "tiny.pt"}
