#!/usr/bin/env python3
"""The Swift programs the documentation shows, for test.sh to build and check:

    docs_examples.py readme-code     the README's usage block (marked as tested by test.sh)
    docs_examples.py readme-output   the output the README shows under it
    docs_examples.py hello-id        the id the site's hello example must print, from the
                                     specification's reference implementation
"""
from __future__ import annotations

import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "docs" / "scripts"))
import test_examples  # noqa: E402
import test_readmes  # noqa: E402

MARK = ("tested", "bindings/swift/scripts/test.sh")


def readme_block(want_output: bool) -> str:
    found = test_readmes.blocks(REPO / "bindings" / "swift" / "README.md")
    for i, (_, _, code, marks) in enumerate(found):
        if MARK in marks:
            if not want_output:
                return code
            following = found[i + 1] if i + 1 < len(found) else None
            if not following or ("output", "") not in following[3]:
                sys.exit("docs_examples: the README's tested Swift block has no <!-- output --> block after it")
            return following[2]
    sys.exit("docs_examples: no README block is marked <!-- tested: bindings/swift/scripts/test.sh -->")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "readme-code":
        sys.stdout.write(readme_block(False))
    elif what == "readme-output":
        sys.stdout.write(readme_block(True))
    elif what == "hello-id":
        print(test_examples.expected_hello())
    else:
        sys.exit(__doc__)
