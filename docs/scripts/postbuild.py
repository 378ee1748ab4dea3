#!/usr/bin/env python3
"""What the site needs of mdBook's output that its configuration cannot say.

The 404 page works under any base path. mdBook gives it `<base href>` of book.toml's
site-url, so the page's styles, scripts and links break wherever the site is
served from another path (a custom domain's root, a fork's Pages, a preview). GitHub Pages
serves 404.html for a missing path at any depth, so the page finds its root itself: the
nearest enclosing directory that holds the build's toc script (a synchronous HEAD each,
deepest first, at most MAX_DEPTH), falling back to site-url.

Code keeps its tabs. mdBook's book.js has highlight.js replace each tab with four spaces,
so the copy button gave a reader Go that gofmt rewrites; the tabs stay, shown four wide
(theme/tabs.css).

    docs/scripts/postbuild.py target/docs
"""
from __future__ import annotations

import pathlib
import re
import sys

MAX_DEPTH = 8

SCRIPT = """<script>
        // The site's root, wherever it is served (docs/scripts/postbuild.py).
        (function () {
            var dirs = location.pathname.split('/').slice(0, -1), root = FALLBACK;
            for (var n = dirs.length; n > 0 && n > dirs.length - MAX_DEPTH; n--) {
                var dir = dirs.slice(0, n).join('/') + '/', probe = new XMLHttpRequest();
                try { probe.open('HEAD', dir + MARKER, false); probe.send(); } catch (e) { continue; }
                if (probe.status === 200) { root = dir; break; }
            }
            var base = document.createElement('base');
            base.href = root;  // the links and scripts parsed after it resolve from here
            document.head.appendChild(base);
        })();
        </script>"""


TAB_REPLACE = "tabReplace: '    ', // 4 spaces\n"


def keep_tabs(site: pathlib.Path) -> str:
    books = sorted(site.glob("book*.js"))
    if len(books) != 1 or books[0].read_text().count(TAB_REPLACE) != 1:
        raise SystemExit(f"postbuild: not one book.js with highlight.js's tabReplace in {site}: {books}")
    books[0].write_text(books[0].read_text().replace(TAB_REPLACE, ""))
    return f"{books[0].name} keeps tabs"


def base_404(site: pathlib.Path) -> str:
    page = site / "404.html"
    text = page.read_text()
    base = re.search(r'<base href="([^"]*)">', text)
    marker = sorted(p.name for p in site.glob("toc*.js"))
    if base is None or len(marker) != 1:
        raise SystemExit(f"postbuild: {page} has no <base href> or {site} has not one toc script ({marker})")
    script = (SCRIPT.replace("FALLBACK", repr(base[1])).replace("MARKER", repr(marker[0]))
              .replace("MAX_DEPTH", str(MAX_DEPTH)))
    page.write_text(text.replace(base[0], script, 1))
    return f"404.html finds its root (the directory of {marker[0]}; else {base[1]})"


if __name__ == "__main__":
    site = pathlib.Path(sys.argv[1])
    print(f"postbuild: {base_404(site)}; {keep_tabs(site)}")
