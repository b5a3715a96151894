#!/usr/bin/env python3
"""Formats a CloudFormation JSON template so a person can read it: two-space indentation, and
any object or list that fits on one line (within WIDTH columns, indentation included) written
on that line. Keys keep their order; values are unchanged (the output parses to the same JSON).

    python3 Tools/format-template.py template.json ...          # rewrite in place
    python3 Tools/format-template.py --check template.json ...  # exit 1 if one is not formatted

.ci/run runs --check on every template; a script that edits a template with json.dump runs this
afterwards.
"""
import json
import sys

WIDTH = 120


def one_line(value):
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def format_value(value, indent, lead=0):
    """`value` starting `lead` columns after `indent` spaces (after its key, say)."""
    flat = one_line(value)
    if not isinstance(value, (dict, list)) or not value or indent + lead + len(flat) <= WIDTH:
        return flat
    inner = indent + 2
    pad = " " * inner
    if isinstance(value, dict):
        items = []
        for key, member in value.items():
            name = json.dumps(key, ensure_ascii=False) + ": "
            items.append(pad + name + format_value(member, inner, len(name)))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + format_value(member, inner) for member in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def formatted(text):
    return format_value(json.loads(text), 0) + "\n"


def main(arguments):
    check = "--check" in arguments
    paths = [a for a in arguments if a != "--check"]
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    unformatted = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        try:
            result = formatted(text)
        except json.JSONDecodeError as error:
            print(f"{path}: not JSON: {error}", file=sys.stderr)
            return 2
        if result == text:
            continue
        if check:
            unformatted.append(path)
        else:
            with open(path, "w", encoding="utf-8") as file:
                file.write(result)
    if unformatted:
        print("not formatted (run python3 Tools/format-template.py " + " ".join(unformatted) + "):", file=sys.stderr)
        for path in unformatted:
            print(f"  {path}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
