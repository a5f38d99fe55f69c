"""Rewrite the `variant_*` definitions of schema/ruleset.schema.json from the others (after editing them)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.bundled import schema_path  # noqa: E402
from interpreter.schema import schema_text, with_variants  # noqa: E402


def main():
    path = schema_path()
    path.write_text(schema_text(with_variants(json.loads(path.read_text(encoding="utf-8")))), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
