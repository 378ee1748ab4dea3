"""Checks the wheels of a release folder with tools, for the platforms that cannot run them
here: each Linux wheel is accepted by auditwheel for its own tag; each macOS and Windows
wheel's native module has the architecture of its tag, a minimum OS version no newer than
the tag (macOS), and imports only system libraries. Prints a size table; every wheel must
be under 1 MB.

    target/dist-tools/bin/python scripts/check_wheels.py target/dist/python
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

MAX_WHEEL = 1_000_000
# What a Windows binary may import: DLLs of Windows itself, its C runtime, Python's stable ABI.
WINDOWS_SYSTEM = re.compile(
    r"^(kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|userenv|ws2_32|msvcrt|ucrtbase|combase|ole32|shell32|secur32|crypt32|"
    r"api-ms-win-[a-z0-9-]+|python3)\.dll$",
    re.IGNORECASE,
)
MACHO_CPU = {0x01000007: "x86_64", 0x0100000C: "arm64"}
PE_MACHINE = {0x8664: "amd64", 0xAA64: "arm64"}


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


def check_macos(path: Path, tag: str, module: bytes) -> str:
    magic, cpu, _, _, ncmds, _, _ = struct.unpack_from("<7I", module)
    if magic != 0xFEEDFACF:
        raise SystemExit(f"{path.name}: not a 64-bit Mach-O file (magic {magic:#x})")
    arch = MACHO_CPU.get(cpu, hex(cpu))
    want = re.search(r"macosx_(\d+)_(\d+)_(\w+)", tag)
    assert want, tag
    if arch != want.group(3):
        raise SystemExit(f"{path.name}: Mach-O for {arch}, tag for {want.group(3)}")
    at, minos, dylibs = 32, None, []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<2I", module, at)
        if cmd == 0x32:  # LC_BUILD_VERSION: platform, minos (xxxx.yy.zz)
            minos = struct.unpack_from("<I", module, at + 12)[0]
        elif cmd == 0x24:  # LC_VERSION_MIN_MACOSX
            minos = struct.unpack_from("<I", module, at + 8)[0]
        elif cmd in (0xC, 0x80000018):  # LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB
            offset = struct.unpack_from("<I", module, at + 8)[0]
            dylibs.append(module[at + offset : at + size].split(b"\0")[0].decode())
        at += size
    if minos is None:
        raise SystemExit(f"{path.name}: no minimum macOS version")
    major, minor = minos >> 16, (minos >> 8) & 0xFF
    if (major, minor) > (int(want.group(1)), int(want.group(2))):
        raise SystemExit(f"{path.name}: needs macOS {major}.{minor}, newer than its tag")
    foreign = [d for d in dylibs if not d.startswith(("/usr/lib/", "/System/Library/"))]
    if foreign:
        raise SystemExit(f"{path.name}: links non-system libraries {foreign}")
    return f"Mach-O {arch}, macOS >= {major}.{minor}, links {', '.join(sorted(set(dylibs)))}"


def pe_imports(module: bytes) -> tuple[int, list[str]]:
    pe = struct.unpack_from("<I", module, 0x3C)[0]
    if module[pe : pe + 4] != b"PE\0\0":
        raise SystemExit("not a PE file")
    machine, nsections, _, _, _, optsize, _ = struct.unpack_from("<HHIIIHH", module, pe + 4)
    opt = pe + 24
    if struct.unpack_from("<H", module, opt)[0] != 0x20B:
        raise SystemExit("not PE32+")
    import_rva = struct.unpack_from("<I", module, opt + 112 + 8)[0]  # data directory 1
    sections = [struct.unpack_from("<8sIIII", module, opt + optsize + 40 * i) for i in range(nsections)]

    def offset(rva: int) -> int:
        for _, vsize, vaddr, rawsize, rawptr in sections:
            if vaddr <= rva < vaddr + max(vsize, rawsize):
                return rawptr + rva - vaddr
        raise SystemExit(f"RVA {rva:#x} is in no section")

    names, at = [], offset(import_rva)
    while True:
        entry = struct.unpack_from("<5I", module, at)
        if entry == (0, 0, 0, 0, 0):
            break
        name_at = offset(entry[3])
        names.append(module[name_at : module.index(b"\0", name_at)].decode())
        at += 20
    return machine, names


def check_windows(path: Path, tag: str, module: bytes) -> str:
    machine, dlls = pe_imports(module)
    arch = PE_MACHINE.get(machine, hex(machine))
    if not tag.endswith("win_" + arch):
        raise SystemExit(f"{path.name}: PE for {arch}, tag {tag}")
    foreign = [d for d in dlls if not WINDOWS_SYSTEM.match(d)]
    if foreign:
        raise SystemExit(f"{path.name}: imports non-system DLLs {foreign}")
    return f"PE32+ {arch}, imports {', '.join(sorted(dlls, key=str.lower))}"


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
