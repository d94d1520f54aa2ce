"""tahqiq's PEP 517 build backend: maturin's, plus the compiled language data in the wheel.

The analysis reads its morphology table, sense index, lemmatised sense examples and installed gazetteers from
``tahqiq/analysis/data/compiled/`` (tahqiq.analysis.compiled). Compiling them from the installed lexicon packages
takes about a minute, so the wheel ships them and a fresh install answers at once. This backend lets maturin build
the wheel, runs ``tahqiq.analysis.runner.compile_into`` on the wheel's own contents (in this build environment,
which therefore also needs the project's dependencies: the lexicons it reads), and adds the files to the wheel
with their RECORD lines. The compiled data comes from GPL packages (farahidi, arramooz), like tahqiq itself, and is
never committed to the repository. An editable install compiles into the source tree's
``python/tahqiq/analysis/data/compiled/`` (ignored by git) instead.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import maturin
from maturin import (  # noqa: F401 (re-exported: the rest of the interface is maturin's)
    build_sdist,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent
COMPILED = "tahqiq/analysis/data/compiled"
# the code being built comes first on the path, ahead of any installed or editable tahqiq
COMPILE = (
    "import sys, pathlib; sys.path.insert(0, sys.argv[1]); "
    "from tahqiq.analysis.runner import compile_into as c; c(pathlib.Path(sys.argv[2]))"
)


def _dependencies() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        return list(tomllib.load(fh)["project"]["dependencies"])


def get_requires_for_build_wheel(config_settings: Mapping[str, Any] | None = None) -> list[str]:
    return [*maturin.get_requires_for_build_wheel(config_settings), *_dependencies()]


def get_requires_for_build_editable(config_settings: Mapping[str, Any] | None = None) -> list[str]:
    return [*maturin.get_requires_for_build_editable(config_settings), *_dependencies()]


def build_wheel(
    wheel_directory: str, config_settings: Mapping[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    name: str = maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    add_compiled_data(Path(wheel_directory) / name)
    return name


def build_editable(
    wheel_directory: str, config_settings: Mapping[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    name: str = maturin.build_editable(wheel_directory, config_settings, metadata_directory)
    _compile(ROOT / "python", ROOT / "python" / COMPILED)
    return name


def _compile(package_root: Path, folder: Path) -> None:
    print(f"tahqiq: compiling the language data into {folder} (about 90 s the first time)", file=sys.stderr, flush=True)
    # the environment as the hook has it: pip's isolated build environment reaches the child through PYTHONPATH
    # (its sitecustomize adds the build requirements), so the child sees what the hook sees
    command = [sys.executable, "-c", COMPILE, str(package_root), str(folder)]
    subprocess.run(command, check=True, stdout=sys.stderr)


def add_compiled_data(wheel: Path) -> None:
    """Compiles the language data with the wheel's own code and rewrites the wheel with it."""
    with tempfile.TemporaryDirectory() as tmp:
        tree, folder = Path(tmp) / "tree", Path(tmp) / "compiled"
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(tree)
        _compile(tree, folder)
        # the suffixes of tahqiq.analysis.compiled.SHIPPED_SUFFIXES (this backend cannot import the package)
        files = sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith((".pickle", ".lemmas.jsonl")))
        _rewrite(wheel, {f"{COMPILED}/{p.name}": p.read_bytes() for p in files})


def _rewrite(wheel: Path, added: dict[str, bytes]) -> None:
    """The wheel with ``added`` before its .dist-info entries (replacing any of the same folder), and a new RECORD."""
    rewritten = wheel.with_suffix(".tmp")
    record_lines: list[str] = []
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as dst:
        infos = [i for i in src.infolist() if not i.filename.startswith(COMPILED + "/")]
        record = next(i.filename for i in infos if i.filename.endswith(".dist-info/RECORD"))
        first_meta = next(n for n, i in enumerate(infos) if ".dist-info/" in i.filename)
        entries: list[tuple[zipfile.ZipInfo, bytes]] = [(i, src.read(i)) for i in infos[:first_meta]]
        for name, data in added.items():
            info = zipfile.ZipInfo(name, date_time=infos[0].date_time)
            info.external_attr = 0o644 << 16
            entries.append((info, data))
        entries += [(i, src.read(i)) for i in infos[first_meta:] if i.filename != record]
        for info, data in entries:
            dst.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record_lines.append(f"{info.filename},sha256={digest},{len(data)}")
        record_lines.append(f"{record},,")
        dst.writestr(record, "\n".join(record_lines) + "\n")
    os.replace(rewritten, wheel)


if __name__ == "__main__":  # after `maturin develop`: compiles the data into the source tree
    _compile(ROOT / "python", ROOT / "python" / COMPILED)
