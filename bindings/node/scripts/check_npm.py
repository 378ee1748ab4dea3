"""Checks the native addons of the npm platform packages in target/dist/npm with tools, for
what cannot run here: each package's os/cpu/libc fields match its platform name; the
addon has that platform's file format and architecture; Linux glibc addons need no glibc
symbol newer than 2.17 and link only the C runtime; musl addons link only musl's libc;
macOS and Windows addons import only system libraries. Prints a size table; each addon
must be under 1.5 MB.

    target/dist-tools/bin/python bindings/node/scripts/check_npm.py target/dist/npm
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# The binary readers shared with the other release checks (scripts/binaries.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from binaries import check_elf, check_macos, check_windows  # noqa: E402

MAX_ADDON = 1_500_000


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
            what = check_elf(addon, cpu, libc)
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
    main(sys.argv[1])
