"""One version for every package, and code generators pinned to exactly the version
their crate uses (a wasm-bindgen CLI must equal the wasm-bindgen crate). Run by
`just test`; prints what it checked."""

from __future__ import annotations

import json
import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def pom_version(path: pathlib.Path) -> str | None:
    """The project's own <version> (not a dependency's or plugin's)."""
    import xml.etree.ElementTree as ET

    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    node = ET.parse(path).getroot().find("m:version", ns)
    return node.text if node is not None else None


def main() -> int:
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())
    version = cargo["workspace"]["package"]["version"]
    pg_ext = tomllib.loads((ROOT / "extensions/postgres/Cargo.toml").read_text())
    found = {
        "Cargo workspace": version,
        "bindings/python/pyproject.toml": tomllib.loads((ROOT / "bindings/python/pyproject.toml").read_text())["project"]["version"],
        "bindings/node/package.json": json.loads((ROOT / "bindings/node/package.json").read_text())["version"],
        "bindings/wasm/package.json": json.loads((ROOT / "bindings/wasm/package.json").read_text())["version"],
        "bindings/kotlin/pom.xml": pom_version(ROOT / "bindings/kotlin/pom.xml"),
        "extensions/postgres/Cargo.toml": pg_ext["package"]["version"],
        "extensions/postgres (its samekey dependency)": pg_ext["dependencies"]["samekey"]["version"].lstrip("="),
    }
    wasm_crate = tomllib.loads((ROOT / "bindings/wasm/Cargo.toml").read_text())["dependencies"]["wasm-bindgen"]
    just_pin = re.search(r'wasm_bindgen_version := "([^"]+)"', (ROOT / "justfile").read_text())
    pins = {"wasm-bindgen crate": wasm_crate.lstrip("="), "wasm-bindgen CLI (justfile)": just_pin and just_pin.group(1)}
    cbindgen = re.search(r'cbindgen_version := "([^"]+)"', (ROOT / "justfile").read_text())
    if not cbindgen:
        return print("check-versions: the justfile pins no cbindgen version", file=sys.stderr) or 1
    failures = [f"{k} is {v}, not {version}" for k, v in found.items() if v != version]
    uniffi = tomllib.loads((ROOT / "bindings/uniffi/Cargo.toml").read_text())["dependencies"]["uniffi"]["version"]
    if not uniffi.startswith("="):
        failures.append(f"uniffi is not pinned exactly: {uniffi!r} (its bindgen binary is built from the same crate)")
    if not wasm_crate.startswith("="):
        failures.append(f"the wasm-bindgen crate is not pinned exactly: {wasm_crate!r}")
    # cargo-pgrx must be the pgrx crate's version (it generates the SQL from the library).
    pgrx_crate = pg_ext["dependencies"]["pgrx"]["version"]
    pgrx_pin = re.search(r'^pgrx_version=(\S+)', (ROOT / "scripts/postgres-extension.sh").read_text(), re.M)
    if not pgrx_crate.startswith("=") or not pgrx_pin or pgrx_pin.group(1) != pgrx_crate.lstrip("="):
        failures.append(f"pgrx crate {pgrx_crate!r} and cargo-pgrx {pgrx_pin and pgrx_pin.group(1)!r} differ")
    if len(set(pins.values())) != 1:
        failures.append(f"wasm-bindgen versions differ: {pins}")
    for f in failures:
        print(f"check-versions: {f}", file=sys.stderr)
    if not failures:
        print(f"versions: every package is {version}; wasm-bindgen crate and CLI are {wasm_crate.lstrip('=')}; uniffi {uniffi.lstrip('=')} with its own bindgen; pgrx and cargo-pgrx {pgrx_crate.lstrip('=')}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
