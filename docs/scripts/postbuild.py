#!/usr/bin/env python3
"""What the site needs of mdBook's output that its configuration cannot say.

The 404 page works under any base path. mdBook gives it `<base href>` of book.toml's
site-url, so the page's styles, scripts and links break wherever the site is
served from another path (a custom domain's root, a fork's Pages, a preview). GitHub Pages
serves 404.html for a missing path at any depth, so the page finds its root itself: the
nearest enclosing directory that holds the build's toc script (a synchronous HEAD each,
deepest first, at most MAX_DEPTH), falling back to site-url.

Each API reference links back to the site. rustdoc, pdoc, TypeDoc, Dokka and DocC make pages
that never mention the site they sit in (Go's page, ours, does): each page gets a small
fixed link to the site's home page, relative, so it works under any base path.

Code keeps its tabs. mdBook's book.js has highlight.js replace each tab with four spaces,
so the copy button gave a reader Go that gofmt rewrites; the tabs stay, shown four wide
(theme/tabs.css).

A short inline code stays on one line. A browser breaks a line after any hyphen, so a
flag such as `--read-token-file` broke at a hyphen on a phone and read as two words;
inline code of at most NOWRAP_CHARS characters gets the class sk-nowrap (theme/site.css), and
longer code (URLs, commands) still wraps.

    docs/scripts/postbuild.py site target/docs     (after mdBook)
    docs/scripts/postbuild.py api target/docs      (after the API references)
"""
from __future__ import annotations

import html
import os
import pathlib
import re
import sys

MAX_DEPTH = 8
NOWRAP_CHARS = 32

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


def short_code_nowrap(site: pathlib.Path) -> str:
    # mdBook writes inline code as a bare <code>; blocks are <pre><code class="language-…">.
    inline = re.compile(r"<code>([^<]*)</code>")

    def keep(m: re.Match) -> str:
        return f'<code class="sk-nowrap">{m[1]}</code>' if len(html.unescape(m[1])) <= NOWRAP_CHARS else m[0]

    count = 0
    for page in site.rglob("*.html"):
        if page.relative_to(site).parts[0] == "api":
            continue
        text = page.read_text()
        kept = inline.sub(keep, text)
        if kept != text:
            page.write_text(kept)
            count += kept.count('class="sk-nowrap"') - text.count('class="sk-nowrap"')
    return f"{count} short inline codes kept on one line"


# Fixed in a corner: no generator's layout moves for it.
SITE_LINK = ('<a class="sk-site-link" href="{href}" style="position:fixed;right:12px;bottom:12px;z-index:1000;'
             'padding:6px 10px;border-radius:6px;background:#1f6feb;color:#fff;font:600 14px/1.2 system-ui,sans-serif;'
             'text-decoration:none;box-shadow:0 1px 4px rgba(0,0,0,.3)">samekey documentation</a>')
GENERATED_API = ("rust", "python", "typescript", "kotlin", "swift")  # Go's page is ours and links already


def api_links(site: pathlib.Path) -> str:
    count = 0
    for lang in GENERATED_API:
        for page in (site / "api" / lang).rglob("*.html"):
            text = page.read_text(errors="surrogateescape")
            body = re.search(r"<body[^>]*>", text)
            if body is None or 'class="sk-site-link"' in text:
                continue
            href = pathlib.PurePosixPath(os.path.relpath(site / "index.html", page.parent)).as_posix()
            page.write_text(text[:body.end()] + SITE_LINK.format(href=href) + text[body.end():], errors="surrogateescape")
            count += 1
    return f"{count} pages of the {', '.join(GENERATED_API)} API references link to the site"


if __name__ == "__main__":
    what, site = sys.argv[1], pathlib.Path(sys.argv[2])
    if what == "site":
        print(f"postbuild: {base_404(site)}; {keep_tabs(site)}; {short_code_nowrap(site)}")
    elif what == "api":
        print(f"postbuild: {api_links(site)}")
    else:
        raise SystemExit(f"postbuild: site or api, not {what}")
