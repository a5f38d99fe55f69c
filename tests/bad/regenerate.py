"""Rewrite every tests/bad/*.expected from `rulebook validate` (then review the diff with git)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLI = HERE.parent.parent / "cli.py"


def diagnose(name: str) -> str:
    """What `rulebook validate NAME` prints, and its exit status, run inside this folder."""
    proc = subprocess.run([sys.executable, str(CLI), "validate", name], capture_output=True, text=True, cwd=HERE)
    return proc.stdout + proc.stderr + f"exit {proc.returncode}\n"


def main():
    for path in sorted(HERE.glob("*.yaml")):
        path.with_suffix(".expected").write_text(diagnose(path.name), encoding="utf-8")
    print(f"wrote {len(list(HERE.glob('*.expected')))} files")


if __name__ == "__main__":
    main()
