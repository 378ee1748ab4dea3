"""Checks the CLI release archives of target/dist/cli with tools: each holds one folder
with the binary, README.md and both licences; the binary has its target's format and
architecture, needs no glibc newer than 2.17 (gnu), links nothing (musl: static), and on
macOS and Windows imports only system libraries. Prints a size table.

    target/dist-tools/bin/python crates/samekey-cli/scripts/check_archives.py target/dist/cli
"""

from __future__ import annotations

import io
import sys
import tarfile
import zipfile
from pathlib import Path

# The binary readers shared with the other release checks (scripts/binaries.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from binaries import check_elf, check_macos, check_windows  # noqa: E402


def members(path: Path) -> dict[str, bytes]:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            return {n: z.read(n) for n in z.namelist() if not n.endswith("/")}
    with tarfile.open(path) as t:
        return {m.name: t.extractfile(m).read() for m in t.getmembers() if m.isfile()}  # type: ignore[union-attr]


def main(folder: str) -> None:
    archives = sorted(p for p in Path(folder).iterdir() if p.name.endswith((".tar.gz", ".zip")))
    if not archives:
        raise SystemExit(f"no archives in {folder}")
    print("| archive | bytes | binary bytes | checked |\n|---|---:|---:|---|")
    for path in archives:
        name = path.name.removesuffix(".tar.gz").removesuffix(".zip")
        files = members(path)
        exe = "samekey.exe" if "windows" in name else "samekey"
        want = {f"{name}/{f}" for f in (exe, "README.md", "LICENSE-MIT", "LICENSE-APACHE")}
        if set(files) != want:
            raise SystemExit(f"{path.name}: holds {sorted(files)}, expected {sorted(want)}")
        binary = files[f"{name}/{exe}"]
        if "linux" in name:
            tmp = Path(folder) / f".{name}.bin"
            tmp.write_bytes(binary)
            try:
                cpu = "arm64" if name.split("-")[2] == "aarch64" else "x64"
                what = check_elf(tmp, cpu, "musl" if name.endswith("musl") else "glibc")
            finally:
                tmp.unlink()
            if name.endswith("musl") and not what.endswith("static"):
                raise SystemExit(f"{path.name}: a musl build must be static, {what}")
        elif "darwin" in name:
            tag = "macosx_11_0_arm64" if "aarch64" in name else "macosx_10_12_x86_64"
            what = check_macos(path, tag, binary)
        else:
            what = check_windows(path, "win_amd64", binary)
        print(f"| {path.name} | {path.stat().st_size:,} | {len(binary):,} | {what} |")


if __name__ == "__main__":
    main(sys.argv[1])
