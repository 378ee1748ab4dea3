"""Checks the wheels of a release folder with tools, for the platforms that cannot run them
here: each Linux wheel is accepted by auditwheel for its own tag; each macOS and Windows
wheel's native module has the architecture of its tag, a minimum OS version no newer than
the tag (macOS), and imports only system libraries. Prints a size table; every wheel must
be under 1 MB.

    target/dist-tools/bin/python bindings/python/scripts/check_wheels.py target/dist/python
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

# The binary readers shared with the other release checks (scripts/binaries.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from binaries import check_macos, check_windows  # noqa: E402

MAX_WHEEL = 1_000_000


def native_module(wheel: zipfile.ZipFile) -> bytes:
    names = [n for n in wheel.namelist() if n.endswith((".so", ".pyd"))]
    if len(names) != 1:
        raise SystemExit(f"expected one native module, found {names}")
    return wheel.read(names[0])


def check_linux(path: Path, tag: str) -> str:
    out = subprocess.run([str(Path(sys.executable).with_name("auditwheel")), "show", str(path)], capture_output=True, text=True, check=True).stdout
    found = re.search(r'platform tag:\s*"([^"]+)"', out.replace("\n", " "))
    wanted = re.search(r"(manylinux_\d+_\d+_\w+|musllinux_\d+_\d+_\w+)", tag)
    if not found or not wanted or found.group(1) != wanted.group(1):
        raise SystemExit(f"{path.name}: auditwheel says {found and found.group(1)}, the tag says {tag}\n{out}")
    return f"auditwheel: {found.group(1)}"


def main(folder: str) -> None:
    wheels = sorted(Path(folder).glob("*.whl"))
    if not wheels:
        raise SystemExit(f"no wheels in {folder}")
    rows = []
    for path in wheels:
        tag = path.stem.split("-")[-1]
        with zipfile.ZipFile(path) as wheel:
            module = native_module(wheel)
            licences = [n for n in wheel.namelist() if "/licenses/LICENSE-" in n]
        if len(licences) != 2:
            raise SystemExit(f"{path.name}: licence files {licences}")
        if "linux" in tag:
            what = check_linux(path, tag)
            ran = "manylinux" in tag and ("run here" if "x86_64" in tag else "run under qemu-user")
        elif "macosx" in tag:
            what, ran = check_macos(path, tag, module), ""
        elif "win" in tag:
            what, ran = check_windows(path, tag, module), ""
        else:
            raise SystemExit(f"{path.name}: unknown platform tag {tag}")
        size = path.stat().st_size
        if size >= MAX_WHEEL:
            raise SystemExit(f"{path.name}: {size} bytes, over the 1 MB budget")
        rows.append((path.name, size, ran or "built, not run", what))
    print("| wheel | bytes | here | checked |\n|---|---:|---|---|")
    for name, size, ran, what in rows:
        print(f"| {name} | {size:,} | {ran} | {what} |")


if __name__ == "__main__":
    main(sys.argv[1])
