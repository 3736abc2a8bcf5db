"""On-disk cache of data derived from shipped files: built once, then read back in milliseconds.

Why: part of a model load is computing the same thing from the same shipped files in every
process — simplemma's Spanish lexicon decoded into a trie (1 s, and 80 MB as a Python dict),
the gazetteers' entries folded into matching keys (0.5 s). An entry is keyed by a hash of
everything it is computed from (the input bytes, the source of the code that computes it, the
library versions), so a changed input makes a new entry, never a stale one. Every entry also
carries the SHA-256 of its bytes: a truncated or corrupt file is rebuilt, never trusted.

Where: ``$CRFDEID_CACHE_DIR``, else the user cache folder (``~/.cache/crfdeid`` on Linux, via
platformdirs). Entries are plain bytes (a marisa trie, JSON) — never pickle — written atomically
(a temporary file in the same folder, then ``os.replace``), so worker processes sharing the
folder never read half a file. They hold no PHI: only what derives from the package's own
files is cached (``shipped``) — a model someone trained or a pack of their own may hold words
of their notes, and is compiled in memory at every load instead. A folder that cannot be written
(a read-only home on a cluster) costs time only: the data is built in memory, with one debug
log line.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

log = logging.getLogger(__name__)

#: Environment variable naming the cache folder (default: the user cache folder).
ENV_CACHE_DIR = "CRFDEID_CACHE_DIR"
#: First bytes of every entry; the number changes if the layout of an entry file ever does.
_MAGIC = b"crfdeid-cache 1\n"
_DIGEST = hashlib.sha256().digest_size
#: Folders a write already failed in, this process: said once, not tried again.
_UNWRITABLE: set[Path] = set()

T = TypeVar("T")
U = TypeVar("U")


def cache_dir() -> Path:
    """``$CRFDEID_CACHE_DIR``, else the user cache folder for crfdeid."""
    env = os.environ.get(ENV_CACHE_DIR)
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("crfdeid", appauthor=False))


def entry_key(*parts: str | bytes) -> str:
    """A content hash of an entry's inputs. Each part is length-prefixed, so ``("ab", "c")`` and
    ``("a", "bc")`` differ."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()[:32]


def source_digest(*modules: ModuleType) -> str:
    """A hash of the source files of ``modules``: an entry computed by this code is rebuilt
    when the code changes (a package version does not change between two edits)."""
    parts: list[str | bytes] = []
    for module in modules:
        try:
            parts.append(Path(module.__file__ or "").read_bytes())
        except OSError:  # no source beside it (a frozen build): its name and the package version
            from . import __version__

            parts.append(f"{module.__name__} {__version__}")
    return entry_key(*parts)


def shipped(path: str | Path) -> bool:
    """Whether ``path`` is part of the installed package (its code, models or data folders):
    what derives from anything else (a user's model or pack) is never cached."""
    from .resources import DATA_KINDS, data_dir

    path = Path(path).resolve()
    roots = [Path(__file__).resolve().parent, *(data_dir(kind).resolve() for kind in DATA_KINDS)]
    return any(path.is_relative_to(root) for root in roots)


def fetch(
    name: str,
    key: str,
    build: Callable[[], T],
    dump: Callable[[T], bytes],
    load: Callable[[bytes], T],
    unstored: Callable[[], U] | None = None,
) -> T | U:
    """The entry ``name`` for ``key``: ``load``-ed from the cache folder when it is there and
    intact, else ``build()``-ed and written there (``dump``) for the next process.

    ``unstored``: what to build instead where the folder cannot be written, when a form that
    only this process will use is cheaper to build than the stored one."""
    found = lookup(name, key, load)
    if found is not None:
        return found
    path = cache_dir() / f"{name}-{key}.bin"
    if unstored is not None and not _storable(path.parent):
        return unstored()
    value = build()
    _write(path, dump(value))
    return value


def lookup(name: str, key: str, load: Callable[[bytes], T]) -> T | None:
    """The entry ``name`` for ``key``, ``load``-ed, or None when it is missing, damaged or its
    loader refuses it: for data whose building ``fetch`` cannot wrap (computed as a side effect
    of other work, then ``store``-d)."""
    path = cache_dir() / f"{name}-{key}.bin"
    payload = _read(path)
    if payload is None:
        return None
    try:
        return load(payload)
    except Exception as exc:  # a loader raises its own types on bytes it cannot read
        log.debug("cache entry %s unreadable (%s: %s): rebuilt", path, type(exc).__name__, exc)
        return None


def store(name: str, key: str, payload: bytes) -> None:
    """Write the entry ``name`` for ``key`` (atomically; skipped where the folder cannot be written)."""
    _write(cache_dir() / f"{name}-{key}.bin", payload)


def _read(path: Path) -> bytes | None:
    """The payload of an entry file, or None when it is missing, unreadable or corrupt."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):  # not built yet
        return None
    except OSError as exc:
        log.debug("cache entry %s not readable (%s): rebuilt", path, exc)
        return None
    head = len(_MAGIC) + _DIGEST
    payload = data[head:]
    if data[: len(_MAGIC)] != _MAGIC or hashlib.sha256(payload).digest() != data[len(_MAGIC) : head]:
        log.debug("cache entry %s is corrupt or truncated: rebuilt", path)
        return None
    return payload


def _storable(folder: Path) -> bool:
    """Whether entries can be written in ``folder`` (created if need be)."""
    if folder in _UNWRITABLE:
        return False
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _unwritable(folder, exc)
        return False
    if not os.access(folder, os.W_OK):  # a read-only mount, or another user's folder
        _unwritable(folder, "no write access")
        return False
    return True


def _unwritable(folder: Path, reason: object) -> None:
    _UNWRITABLE.add(folder)
    log.debug("cache folder %s not writable (%s): derived data is built in memory", folder, reason)


def _write(path: Path, payload: bytes) -> None:
    """Write an entry atomically; a folder that cannot be written is logged once and skipped."""
    folder = path.parent
    if not _storable(folder):
        return
    temporary: str | None = None
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(_MAGIC)
            out.write(hashlib.sha256(payload).digest())
            out.write(payload)
        os.chmod(temporary, 0o644)  # derived from shipped lexicons: nothing private in it
        os.replace(temporary, path)
    except OSError as exc:
        _unwritable(folder, exc)
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
