#!/usr/bin/env python3
"""Checks the built site (target/docs) as a reader follows it: every link and resource of
the site's own pages that stays on the site points at a file that is there (and, for
`page.html#id`, at an id on that page), each language's API reference was built and
documents that language's name for deriving an id, each of its pages links back to the
site and has the target of each of its in-page links, and no page (API references
included) shows a flag whose `--` typography turned into a dash (`–scheme`), which a
reader would copy and the command refuse.

    docs/scripts/test_links.py
"""
from __future__ import annotations

import html
import pathlib
import re
import sys
import urllib.parse

REPO = pathlib.Path(__file__).resolve().parents[2]
SITE = REPO / "target" / "docs"
SITE_URL = "/samekey/"  # book.toml's site-url: where the site is served, for absolute links

# Each API reference's entry page and the name it must document.
API = {
    "rust": ("api/rust/samekey/index.html", "derive_ulid"),
    "python": ("api/python/samekey.html", "derive_ulid"),
    "python registry": ("api/python/samekey/registry.html", "register_file"),
    "typescript": ("api/typescript/modules/samekey.html", "deriveUlid"),
    "typescript registry": ("api/typescript/classes/samekey_registry.Registry.html", "registerStream"),
    "go": ("api/go/index.html", "DeriveULID"),
    "go registry": ("api/go/index.html", "RegisterFile"),
    "kotlin": ("api/kotlin/index.html", "samekey"),
    # DocC's pages are one script that renders its JSON: the id function is in the data.
    "swift": ("api/swift/data/documentation/samekey/ulid.json", "deriving"),
}


def ids(page: pathlib.Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page.read_text(errors="replace")))


# A dash that starts a word and is followed by a flag's name: `--scheme` made an en dash.
DASHED_FLAG = re.compile(r"(?<![\w\-\u2013\u2014])[\u2013\u2014][a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def dashed_flags(page: pathlib.Path) -> list[str]:
    """The text around each flag of `page` whose hyphens typography made a dash."""
    text = re.sub(r"<script.*?</script>|<style.*?</style>", "", page.read_text(errors="replace"), flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return [text[max(0, m.start() - 20):m.end()] for m in DASHED_FLAG.finditer(text)]


def api_page_faults(page: pathlib.Path) -> list[str]:
    """An API reference page links back to the site's home page, and each of its in-page
    links (`#name`) has its target on the page."""
    text = page.read_text(errors="replace")
    where = page.relative_to(SITE)
    faults = []
    refs = [urllib.parse.urlsplit(html.unescape(r)) for r in re.findall(r'href="([^"]+)"', text)]
    # A redirect (pdoc's index.html) or a fragment loaded by script (Dokka's navigation.html)
    # has no body: no reader sees it as a page.
    if re.search(r"<body[\s>]", text) and not any(not r.scheme and not r.netloc and r.path and (page.parent / r.path).resolve() == SITE / "index.html"
               for r in refs):
        faults.append(f"{where}: no link to the site's home page")
    # Compared as a browser does: both sides percent-decoded (rustdoc's ids hold %3C).
    targets = {urllib.parse.unquote(html.unescape(t)) for t in re.findall(r'\b(?:id|name)="([^"]+)"', text)}
    for fragment in sorted({urllib.parse.unquote(r.fragment) for r in refs if not r.path and not r.scheme and r.fragment}):
        if fragment not in targets:
            faults.append(f"{where}: #{fragment} is no id on the page")
    return faults


def main() -> int:
    if not (SITE / "index.html").exists():
        print("test_links: target/docs is missing: run `just docs` first")
        return 1
    faults, links = [], 0
    pages = [p for p in SITE.rglob("*.html") if "api" not in p.relative_to(SITE).parts[:1]]
    anchors: dict[pathlib.Path, set[str]] = {}
    for page in pages:
        # Code blocks are text a reader copies (an example page's src="bundle.js"), not links.
        markup = re.sub(r"<pre\b.*?</pre>", "", page.read_text(), flags=re.S)
        for ref in re.findall(r'(?:href|src)="([^"]+)"', markup):
            url = urllib.parse.urlsplit(html.unescape(ref))
            if url.scheme or url.netloc or ref.startswith(("#", "mailto:", "javascript:")):
                continue
            path = urllib.parse.unquote(url.path)
            if path.startswith("/"):
                if not path.startswith(SITE_URL):
                    faults.append(f"{page.relative_to(SITE)}: {ref} is outside the site's {SITE_URL}")
                    continue
                target = (SITE / path[len(SITE_URL):]).resolve()
            else:
                target = (page.parent / path).resolve()
            if target.is_dir():
                target = target / "index.html"
            links += 1
            where = page.relative_to(SITE)
            if not target.is_file():
                faults.append(f"{where}: {ref} is not on the site")
            elif url.fragment and target.suffix == ".html" and "api" not in target.relative_to(SITE).parts[:1]:
                if url.fragment not in anchors.setdefault(target, ids(target)):
                    faults.append(f"{where}: {ref}: no id {url.fragment!r} on {target.relative_to(SITE)}")
    for page in SITE.rglob("*.html"):
        for seen in dashed_flags(page):
            faults.append(f"{page.relative_to(SITE)}: a flag printed with a dash: {seen!r}")
    for lang, (entry, name) in API.items():
        page = SITE / entry
        if not page.is_file():
            faults.append(f"the {lang} API reference has no {entry}: run `just site::api`")
        elif name not in page.read_text(errors="replace"):
            faults.append(f"{entry} does not mention {name}")
    api_pages = list((SITE / "api").rglob("*.html"))
    for page in api_pages:
        faults.extend(api_page_faults(page))
    for fault in faults:
        print(f"test_links: {fault}")
    print(f"test_links: {links} links of {len(pages)} pages, {len(API)} API references ({len(api_pages)} pages)"
          + (f"; {len(faults)} fault(s)" if faults else ", all there"))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
