"""Rewrite the definitions of schema/ruleset.schema.json that are made from others: the effects' from the effect
definitions (interpreter/effects/), the `variant_*` from the rest (after editing either)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.bundled import schema_path  # noqa: E402
from interpreter.schema import schema_text, with_effects, with_variants  # noqa: E402


def main():
    path = schema_path()
    schema = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(schema_text(with_variants(with_effects(schema))), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
