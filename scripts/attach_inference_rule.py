#!/usr/bin/env python3
"""Sets `.infer = RULE` (or, with --field kernel, `.kernel = RULE`) on versions of the
operator defined in an op file.

    scripts/attach_inference_rule.py src/ops/math/add.cc inferAdd            # every version
    scripts/attach_inference_rule.py src/ops/math/add.cc inferAddLegacy 1 6  # these versions
    scripts/attach_inference_rule.py --field kernel src/ops/math/add.cc runAdd 7 13 14

A version that already has a rule gets the new one. Run clang-format on the file after.
"""
import re
import sys


def version_spans(text):
    """(since_version, start, end) of each `{.since_version = N, ...}` initialiser."""
    for match in re.finditer(r"\{\s*\.since_version\s*=\s*(\d+)", text):
        depth = 0
        for i in range(match.start(), len(text)):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    yield int(match.group(1)), match.start(), i
                    break


def main():
    args = sys.argv[1:]
    field = "infer"
    if len(args) >= 2 and args[0] == "--field":
        field, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    path, rule = args[0], args[1]
    wanted = {int(v) for v in args[2:]}
    text = open(path).read()
    spans = [s for s in version_spans(text) if not wanted or s[0] in wanted]
    if wanted and len(spans) != len(wanted):
        sys.exit(f"{path}: versions {sorted(wanted)} not all found")
    for _, start, end in reversed(spans):
        body = text[start:end]
        body = re.sub(r",\s*\." + field + r"\s*=\s*[A-Za-z_][A-Za-z_0-9:]*\s*$", "",
                      body.rstrip())
        body = re.sub(r",\s*$", "", body)
        text = text[:start] + body + ",\n ." + field + " = " + rule + text[end:]
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
