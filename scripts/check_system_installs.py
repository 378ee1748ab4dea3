#!/usr/bin/env python3
"""No recipe or script installs a system package except scripts/setup-system.sh.

An install in the middle of a run can upgrade the packages of a server the run already
started (issue 28: postgresql-server-dev-15 upgraded postgresql-15 under the tests'
server). Installs inside a root of our own (`chroot ROOT apt-get ...`) touch no running
service and are allowed. GitHub workflows run on other machines and are not checked.

    python3 scripts/check_system_installs.py              check the tree
    python3 scripts/check_system_installs.py --self-test  the checker finds planted installs
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {"scripts/setup-system.sh", "scripts/check_system_installs.py"}
CHECKED = re.compile(r"(^|/)(justfile|[^/]+\.(sh|mjs|js|py)|run)$")
# apt-get/apt/dpkg used to install, as a command or as an argument list ('apt-get', ['install').
INSTALL = re.compile(r"""\b(apt-get|apt|aptitude)\b['"]?\s*(,\s*\[)?\s*['"]?\s*(-\S+\s+)*(install|upgrade|dist-upgrade)\b|\bdpkg\s+(-i|--install)\b""")
INSIDE_ROOT = re.compile(r"\bchroot\s+\S+\s+(env\s+(\S+=\S+\s+)*)?apt-get\b")


def offending(path: str, text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0] if path.endswith((".sh", "justfile", "run", ".py")) else line
        code = code.split("//", 1)[0] if path.endswith((".mjs", ".js")) else code
        if INSTALL.search(code) and not INSIDE_ROOT.search(code):
            found.append(f"{path}:{number}: {line.strip()}")
    return found


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    # docs/examples/install/ holds a reader's install lines, which the tests run only
    # inside roots of their own (extensions/postgres/scripts/test-major.sh: chroot).
    return [p for p in out.splitlines()
            if CHECKED.search(p) and p not in ALLOWED and not p.startswith((".github/", "docs/examples/install/"))
            and "node_modules/" not in p and (ROOT / p).is_file()]


def self_test() -> None:
    planted = {
        "justfile": "x:\n    command -v jq || apt-get install -y -qq jq\n",
        "a.sh": "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \"${need[@]}\"\n",
        "b.mjs": "run('apt-get', ['install', '-y', '-qq', 'gcc-mingw-w64-x86-64']);\n",
        "c.sh": "dpkg -i ./old.deb\n",
        "d.sh": "apt install ./file.deb\n",
    }
    allowed = {
        "e.sh": "chroot \"$root\" apt-get install -y -qq swiftlang\n# apt-get install is only in setup-system\n",
    }
    for path, text in planted.items():
        assert offending(path, text), f"missed the install in {path}: {text!r}"
    for path, text in allowed.items():
        assert not offending(path, text), f"flagged {path}: {offending(path, text)}"
    print(f"check_system_installs self-test: {len(planted)} planted installs found, {len(allowed)} allowed lines passed")


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    found = [hit for p in tracked() for hit in offending(p, (ROOT / p).read_text(encoding="utf-8", errors="replace"))]
    if found:
        print("system packages installed outside scripts/setup-system.sh (add them to its list):", file=sys.stderr)
        print("\n".join(found), file=sys.stderr)
        return 1
    print("check_system_installs: every system package comes from scripts/setup-system.sh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
