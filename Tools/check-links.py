#!/usr/bin/env python3
"""Checks that the documentation points only at files the repository has.

Scans README.md, ARCHITECTURE.md and docs/*.md for
- markdown links `[text](target)` with a relative target (the `#anchor` stripped; http(s):,
  mailto: and pure anchors skipped), resolved against the linking file's folder, and
- backticked repository paths starting with Tests/, Functions/, Runtime/, Client/,
  Benchmarks/, Tools/, events/ or docs/ (a trailing `:line` stripped; paths containing `*`,
  `{`, `<`, `…` or a space skipped), resolved against the repository root.

Exits 1 and lists every missing path with its file and line; 0 when all resolve.
Run from anywhere: python3 Tools/check-links.py
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREFIXES = ("Tests/", "Functions/", "Runtime/", "Client/", "Benchmarks/", "Tools/", "events/", "docs/")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^\s*(```|~~~)")


def files():
    found = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"]
    found += sorted((ROOT / "docs").glob("*.md"))
    return [f for f in found if f.exists()]


def check(path):
    missing = []
    in_fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue  # http:, https:, mailto: and other schemes; anchors within the page
            target = target.split("#", 1)[0].split("?", 1)[0]
            if target and not (path.parent / target).exists():
                missing.append((number, "link", target))
        for match in CODE.finditer(line):
            text = match.group(1).strip()
            if not text.startswith(PREFIXES):
                continue
            if any(c in text for c in "*{<…") or " " in text:
                continue
            text = re.sub(r":\d+(?:-\d+)?$", "", text)
            if not (ROOT / text).exists():
                missing.append((number, "path", text))
    return missing


def main():
    failures = 0
    for path in files():
        for number, kind, target in check(path):
            print(f"{path.relative_to(ROOT)}:{number}: missing {kind} {target}")
            failures += 1
    if failures:
        print(f"{failures} missing path(s)", file=sys.stderr)
        return 1
    print(f"check-links: all links and repository paths resolve ({len(files())} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
