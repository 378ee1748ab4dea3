"""Reading release binaries with tools, for the platforms that cannot run them here: an
ELF file's architecture, libraries and glibc symbol versions, a Mach-O file's architecture,
minimum macOS and libraries, a PE file's architecture and imported DLLs. Shared by the
release checks of the wheels, the npm addons and the CLI archives."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection

# What a Windows binary may import: DLLs of Windows itself, its C runtime, Python's stable ABI.
WINDOWS_SYSTEM = re.compile(
    r"^(kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|userenv|ws2_32|msvcrt|ucrtbase|combase|ole32|shell32|secur32|crypt32|"
    r"api-ms-win-[a-z0-9-]+|python3)\.dll$",
    re.IGNORECASE,
)
MACHO_CPU = {0x01000007: "x86_64", 0x0100000C: "arm64"}
PE_MACHINE = {0x8664: "amd64", 0xAA64: "arm64"}
ELF_MACHINE = {"EM_X86_64": "x64", "EM_AARCH64": "arm64"}
GLIBC_RUNTIME = re.compile(r"^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libgcc_s\.so\.1|ld-linux-[\w-]+\.so\.\d)$")
MUSL_RUNTIME = re.compile(r"^(libc\.so|libc\.musl-\w+\.so\.1|libgcc_s\.so\.1)$")


def check_elf(path: Path, cpu: str, libc: str) -> str:
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
