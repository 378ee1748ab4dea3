"""Checks the native addons of the npm platform packages in target/dist/npm with tools, for
what cannot run here: each package's os/cpu/libc fields match its platform name; the
addon has that platform's file format and architecture; Linux glibc addons need no glibc
symbol newer than 2.17 and link only the C runtime; musl addons link only musl's libc;
macOS and Windows addons import only system libraries. Prints a size table; each addon
must be under 1.5 MB.

    target/dist-tools/bin/python scripts/check_npm.py target/dist/npm
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection

from check_wheels import check_macos, check_windows

MAX_ADDON = 1_500_000
ELF_MACHINE = {"EM_X86_64": "x64", "EM_AARCH64": "arm64"}
GLIBC_RUNTIME = re.compile(r"^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libgcc_s\.so\.1|ld-linux-[\w-]+\.so\.\d)$")
MUSL_RUNTIME = re.compile(r"^(libc\.so|libc\.musl-\w+\.so\.1|libgcc_s\.so\.1)$")


def check_linux(path: Path, cpu: str, libc: str) -> str:
    with path.open("rb") as f:
        elf = ELFFile(f)
        arch = ELF_MACHINE.get(elf["e_machine"], elf["e_machine"])
        if arch != cpu:
            raise SystemExit(f"{path}: ELF for {arch}, package for {cpu}")
        dynamic = elf.get_section_by_name(".dynamic")  # none in a static executable
        needed = [t.needed for t in dynamic.iter_tags() if t.entry.d_tag == "DT_NEEDED"] if dynamic else []
        versions = set()
        for section in elf.iter_sections():
            if isinstance(section, GNUVerNeedSection):
                for _, aux in section.iter_versions():
                    versions.update(a.name for a in aux if a.name.startswith("GLIBC_"))
    allowed = GLIBC_RUNTIME if libc == "glibc" else MUSL_RUNTIME
    foreign = [n for n in needed if not allowed.match(n)]
    if foreign:
        raise SystemExit(f"{path}: links {foreign} beyond the {libc} runtime")
    newest = max((tuple(int(x) for x in v[6:].split(".")) for v in versions), default=(0,))
    if libc == "glibc" and newest > (2, 17):
        raise SystemExit(f"{path}: needs glibc {'.'.join(map(str, newest))}, newer than 2.17")
    if libc == "musl" and versions:
        raise SystemExit(f"{path}: glibc symbol versions in a musl addon: {sorted(versions)}")
    glibc = f", glibc >= {'.'.join(map(str, newest))}" if libc == "glibc" else ""
    return f"ELF {arch}{glibc}, " + (f"links {', '.join(needed)}" if needed else "static")


def main(folder: str) -> None:
    packages = sorted(p for p in Path(folder).glob("samekey-*") if p.is_dir() and p.name != "samekey-wasm")
    if not packages:
        raise SystemExit(f"no platform packages in {folder}")
    print("| package | addon bytes | here | checked |\n|---|---:|---|---|")
    for pkg in packages:
        manifest = json.loads((pkg / "package.json").read_text())
        platform = pkg.name.removeprefix("samekey-")
        os_, cpu = manifest["os"][0], manifest["cpu"][0]
        libc = (manifest.get("libc") or [None])[0]
        if platform != "-".join(filter(None, [os_, cpu, {"glibc": "gnu", "musl": "musl"}.get(libc or "")])):
            raise SystemExit(f"{pkg.name}: os/cpu/libc {os_}/{cpu}/{libc} do not name {platform}")
        addon = pkg / manifest["main"]
        data = addon.read_bytes()
        if os_ == "linux":
            what = check_linux(addon, cpu, libc)
        elif os_ == "darwin":
            tag = {"x64": "macosx_10_12_x86_64", "arm64": "macosx_11_0_arm64"}[cpu]
            what = check_macos(addon, tag, data)
        else:
            what = check_windows(addon, "win_amd64", data)
        if len(data) >= MAX_ADDON:
            raise SystemExit(f"{addon}: {len(data)} bytes, over the 1.5 MB budget")
        here = "run here" if platform == "linux-x64-gnu" else "built, not run"
        print(f"| {pkg.name} | {len(data):,} | {here} | {what} |")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main(sys.argv[1])
