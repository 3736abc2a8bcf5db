"""Shared fixtures.

``meddocan_dir`` points at the MEDDOCAN corpus (``train/`` and ``dev/`` folders of BRAT files),
found the same way the package finds it (``crfdeid.resources.meddocan_dir``: ``$CRFDEID_MEDDOCAN``,
``$CRFDEID_SHARED/corpora/meddocan`` or ``../shared/corpora/meddocan``). The corpus is licensed
separately and never copied into this repository; tests that use the fixture skip without it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from crfdeid.cache import ENV_CACHE_DIR
from crfdeid.resources import meddocan_dir as find_meddocan

_RUN_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """Derived data (``crfdeid.cache``) goes to a folder of this test run, never the user's
    cache folder, unless ``CRFDEID_CACHE_DIR`` is set already; subprocesses inherit it."""
    if not os.environ.get(ENV_CACHE_DIR):
        _RUN_CACHE.append(tempfile.mkdtemp(prefix="crfdeid-test-cache-"))
        os.environ[ENV_CACHE_DIR] = _RUN_CACHE[0]


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _RUN_CACHE:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def meddocan_dir() -> Path:
    """The MEDDOCAN corpus folder, or skip the test when it is not available."""
    path = find_meddocan()
    if path is None or not all((path / part).is_dir() for part in ("train", "dev")):
        where = f"not at {path}" if path else "no ../shared/corpora/meddocan beside the project"
        pytest.skip(f"MEDDOCAN corpus not found ({where}); set CRFDEID_MEDDOCAN to a folder "
                    "with train/ and dev/ to run this test")
    return path


EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CRF model trained in about a second on the three invented example notes.

    Too small to be accurate; it exercises the real training, saving and loading code.
    """
    from crfdeid.features import FeatureSet
    from crfdeid.io.corpus import load_corpus
    from crfdeid.train import TrainConfig, fit

    docs = list(load_corpus([EXAMPLES]).values())
    out = tmp_path_factory.mktemp("models") / "tiny"
    fit(docs, TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=40), out)
    return out


#: Six short invented English letters annotated with labels of the generic scheme.
GENERIC_CORPUS = Path(__file__).resolve().parent / "fixtures" / "generic_corpus"


def _train_on_generic(out: Path, **config) -> Path:
    from crfdeid.features import FeatureSet
    from crfdeid.io.corpus import load_corpus
    from crfdeid.train import TrainConfig, fit

    docs = list(load_corpus([GENERIC_CORPUS]).values())
    fit(docs, TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=30, **config), out)
    return out


@pytest.fixture(scope="session")
def generic_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model of the generic scheme trained in seconds with the Spanish pack and rules: the
    issue's German corpus, in miniature (the Spanish rules ran on labels that were not theirs)."""
    return _train_on_generic(tmp_path_factory.mktemp("models") / "generic")


@pytest.fixture(scope="session")
def neutral_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same corpus with ``--lang none``: no gazetteers, no lemmatiser, neutral rules."""
    return _train_on_generic(tmp_path_factory.mktemp("models") / "neutral", language="none")


#: An invented note the tiny model has not seen: it is unsure of many tokens, so an operating
#: point above its best path changes what it finds.
UNSEEN_NOTE = (
    "Paciente: Rosa María Gil Luengo, de 67 años, natural de Teruel.\n"
    "Ingresa el 3 de mayo de 2022 en el Hospital San Jorge de Huesca acompañada de su hija Lucía.\n"
    "Médico responsable: Dr. Tomás Ferrer Casas. Contacto: rosagil@correo.es, 976 55 44 33.\n"
    "Trabaja como maestra en Zaragoza; vive en la calle Mayor 12.\n"
)
#: The deidentify point ``pointed_model`` records: every label below P(O) 0.99, separate spans.
RECORDED_POINT = {"threshold": 0.99, "labels": {}, "spans": "separate"}


@pytest.fixture(scope="session")
def pointed_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model, recording a deidentify operating point (written as ``train`` writes it)."""
    from crfdeid.features import FeatureSet
    from crfdeid.io.corpus import load_corpus
    from crfdeid.train import TrainConfig, fit

    docs = list(load_corpus([EXAMPLES]).values())
    out = tmp_path_factory.mktemp("models") / "pointed"
    fit(docs, TrainConfig(FeatureSet.load("default"), c1=0.0, c2=0.01, iterations=40), out,
        extra_metadata={"operating_points": {"deidentify": RECORDED_POINT}})
    return out


#: The key the Spark tests' executors hold in $CRFDEID_KEY (see the ``spark`` fixture).
EXECUTOR_KEY = "0123456789abcdef-crfdeid-spark-executor-key"


@pytest.fixture(scope="session")
def executor_key() -> str:
    return EXECUTOR_KEY


@pytest.fixture(scope="session")
def spark():
    """One real Spark session for every Spark test: local[2] with one retry per task (``local[2,2]``,
    so a test can fail a task and watch Spark retry it), no UI, small shuffles. Skips, saying why,
    without pyspark or a Java runtime. Spark's Python workers inherit the environment the JVM
    started with, as executors of a cluster keep theirs: PYTHONPATH gets this checkout first (they
    import the crfdeid under test) and $CRFDEID_KEY is ``EXECUTOR_KEY`` there only — this process
    gets its own environment back once the JVM is up."""
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install '.[spark]')")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install '.[spark]')")
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        pytest.skip("no Java runtime (java on PATH or JAVA_HOME) for Spark; .ci/run installs "
                    "default-jre-headless")
    from pyspark.sql import SparkSession

    from crfdeid.spark import BATCH_ROWS, REDACTION_REGEX

    root = str(Path(__file__).resolve().parent.parent)
    saved = dict(os.environ)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    os.environ["CRFDEID_KEY"] = EXECUTOR_KEY
    os.environ["PYSPARK_PYTHON"] = sys.executable  # workers run this Python, not python3 on PATH
    try:
        session = (SparkSession.builder.master("local[2,2]").appName("crfdeid tests")
                   .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                   .config("spark.sql.shuffle.partitions", "2").config("spark.default.parallelism", "2")
                   .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(BATCH_ROWS))
                   .config("spark.redaction.regex", REDACTION_REGEX).getOrCreate())
    finally:
        os.environ.clear()
        os.environ.update(saved)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
