"""Wheels for an offline fresh virtualenv: this checkout's distributions built with hatchling,
and their third-party dependencies packed back into wheels from the environment running the
tests (its installed files, RECORD and WHEEL tags), so pip needs no network and no cache."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import subprocess
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# Written by the installer, not part of a wheel (pip writes its own).
INSTALLER_FILES = {"INSTALLER", "REQUESTED", "RECORD", "direct_url.json"}


def build_wheel(project: Path, out: Path) -> Path:
    """Build the wheel of the project folder `project` into `out` with hatchling; return it."""
    before = set(out.glob("*.whl")) if out.exists() else set()
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
        cwd=project, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    (wheel,) = set(out.glob("*.whl")) - before
    return wheel


def requirement_closure(names: Iterable[str], skip: Iterable[str] = ()) -> list[str]:
    """Return the installed distributions `names` need, transitively (no extras), without the
    names themselves and those in `skip`."""
    skipped = {canonicalize_name(name) for name in skip}
    roots = [canonicalize_name(name) for name in names]
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for text in importlib.metadata.distribution(name).requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(canonicalize_name(requirement.name))
    return sorted(seen - set(roots) - skipped)


def repack_installed(name: str, out: Path) -> Path:
    """Write the installed distribution `name` back into a wheel in `out`; return it."""
    dist = importlib.metadata.distribution(name)
    wheel_text = dist.read_text("WHEEL")
    if wheel_text is None or dist.files is None:
        raise RuntimeError(f"{name} was not installed from a wheel: cannot pack it again")
    tags = [line.split(":", 1)[1].strip() for line in wheel_text.splitlines() if ":" in line
            and line.split(":", 1)[0] == "Tag"]  # fmt: skip
    parts = [sorted({tag.split("-")[i] for tag in tags}) for i in range(3)]
    stem = f"{canonicalize_name(dist.metadata['Name']).replace('-', '_')}-{dist.version}"
    path = out / f"{stem}-{'-'.join('.'.join(part) for part in parts)}.whl"
    out.mkdir(parents=True, exist_ok=True)
    records: list[str] = []
    record_name = ""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in dist.files:
            arcname = file.as_posix()
            folder, _, base = arcname.rpartition("/")
            if folder.endswith(".dist-info") and "/" not in folder:
                record_name = f"{folder}/RECORD"
                if base in INSTALLER_FILES:
                    continue
            if arcname.startswith("../") or "__pycache__" in arcname:
                continue  # console scripts (pip writes them again) and bytecode
            data = Path(dist.locate_file(file)).read_bytes()
            archive.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            records.append(f"{arcname},sha256={digest.decode()},{len(data)}")
        records.append(f"{record_name},,")
        archive.writestr(record_name, "\n".join(records) + "\n")
    return path
