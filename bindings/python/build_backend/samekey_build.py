"""The build backend of the samekey sdist: maturin, once a Rust toolchain is found.

Without cargo, maturin's backend would download a whole Rust toolchain (~900 MB) through
puccinialin, or fail offline with "No module named 'puccinialin'". This backend stops at
once instead and says what to install.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Mapping

# maturin reads this when asked for its build requirements: never add puccinialin.
os.environ["MATURIN_NO_INSTALL_RUST"] = "1"

import maturin  # noqa: E402
from maturin import build_editable, build_sdist, prepare_metadata_for_build_wheel  # noqa: E402,F401
from maturin import get_requires_for_build_editable, get_requires_for_build_sdist  # noqa: E402,F401


def _required_rust() -> str:
    """The workspace's rust-version, from the Cargo.toml at the root of the sdist."""
    manifest = Path("Cargo.toml").read_text(encoding="utf-8")
    found = re.search(r'^rust-version\s*=\s*"([0-9.]+)"', manifest, re.MULTILINE)
    return found.group(1) if found else "1"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def _check_rust() -> None:
    need = _required_rust()
    cargo = shutil.which("cargo")
    found = None
    if cargo is not None:
        try:
            out = subprocess.run([cargo, "--version"], capture_output=True, text=True, check=True).stdout
            found = re.search(r"cargo (\d+\.\d+\.\d+)", out)
        except (OSError, subprocess.CalledProcessError):
            found = None
    if found is not None and _version(found.group(1)) >= _version(need):
        return
    have = f"cargo {found.group(1)} is too old" if found else "no cargo was found on PATH"
    raise SystemExit(
        f"samekey: building from source needs Rust {need} or newer, and {have}.\n"
        "Install Rust with rustup (https://rustup.rs) or your system's packages, then retry;\n"
        "or install a prebuilt wheel: pip install --only-binary samekey samekey\n"
        "(wheels exist for Linux glibc/musl x86_64 and aarch64, macOS and Windows)."
    )


def get_requires_for_build_wheel(config_settings: Mapping[str, Any] | None = None) -> list[str]:
    _check_rust()
    return maturin.get_requires_for_build_wheel(config_settings)


def build_wheel(
    wheel_directory: str,
    config_settings: Mapping[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    _check_rust()
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
