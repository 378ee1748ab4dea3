#!/usr/bin/env python3
"""The Go packages' API reference as one static page: `go doc -all` of bindings/go and of
its registry client, bindings/go/registry (the text pkg.go.dev renders), in a page of the
site's own, since pkgsite serves but does not write files.

    docs/scripts/go_api_page.py OUT.html
"""
from __future__ import annotations

import html
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>samekey for Go: API reference</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }}
pre {{ font-size: 0.9rem; white-space: pre-wrap; }}
</style>
</head>
<body>
<main>
<h1>samekey for Go</h1>
<p><code>go get github.com/samekey/samekey/bindings/go</code>: the package's documentation,
then its registry client's (<code>bindings/go/registry</code>), as <code>go doc -all</code>
prints them (go {version}). <a href="../../index.html">The samekey site</a>.</p>
<pre>{doc}</pre>
</main>
</body>
</html>
"""


def main(out: str) -> None:
    # `go doc` reads the sources only: no cgo build, so no static library is needed.
    doc = "".join(
        subprocess.run(["go", "doc", "-all", package], cwd=REPO / "bindings" / "go",
                       check=True, capture_output=True, text=True).stdout + "\n"
        for package in (".", "./registry"))
    version = subprocess.run(["go", "env", "GOVERSION"], check=True, capture_output=True, text=True).stdout.strip()
    path = pathlib.Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PAGE.format(doc=html.escape(doc), version=html.escape(version)))


if __name__ == "__main__":
    main(sys.argv[1])
