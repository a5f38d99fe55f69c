"""The fuzz targets of tests/fuzzing.py run long: a number of cases per target -> what each tried and found.

Run: python benchmarks/fuzz_long.py [cases per target] [seed]
Prints, per target, how many cases it tried and what they ended in (refused at load, games played,
game errors, saves refused or accepted, API calls answered or refused), how many messages still
carry Python's words instead of the author's, with a few of them, and any exception that was not
the project's own (the run then exits 1). The fast suite runs the same targets a little
(tests/test_fuzz.py).
"""
from __future__ import annotations

import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, settings, strategies as st  # noqa: E402

import fuzzing  # noqa: E402

FOLDER = Path(tempfile.mkdtemp(prefix="rulebook-fuzz-"))   # where mutated variants are written to be loaded

TARGETS = {
    "rulesets: structure": lambda: given(st.sampled_from(sorted(fuzzing.SOURCES)), st.data())(fuzzing.structural),
    "rulesets: variants": lambda: given(st.sampled_from(sorted(fuzzing.VARIANTS)), st.data())(
        lambda name, data: fuzzing.variant(name, data, FOLDER)),
    "rulesets: text": lambda: given(st.sampled_from(sorted(fuzzing.SOURCES)), st.data())(fuzzing.textual),
    "rulesets: expressions": lambda: given(st.sampled_from(sorted(fuzzing.SOURCES)), st.data())(fuzzing.expression),
    "saves": lambda: given(st.sampled_from(sorted(fuzzing.saves())), st.data())(fuzzing.damaged_save),
    "api": lambda: given(st.data())(fuzzing.api_calls),
}


def main():
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    failed = 0
    print(f"{cases} cases per target, seed {seed}")
    for name, build in TARGETS.items():
        # no shrinking: a failure is reported as found (shrinking one can take many minutes)
        test = settings(max_examples=cases, deadline=None, database=None, derandomize=False,
                        phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))(build())
        start = time.perf_counter()
        try:
            # a seed makes the run repeatable (hypothesis.seed, without its pytest plugin)
            test._hypothesis_internal_use_seed = seed
            test()
            outcome = "only the project's errors"
        except Exception:   # a foreign exception: the finding the run is for
            failed += 1
            outcome = "FOUND AN EXCEPTION THAT IS NOT THE PROJECT'S:\n" + traceback.format_exc(limit=6)
        spent = time.perf_counter() - start
        counts = ", ".join(f"{k} {v}" for k, v in fuzzing.COUNTS[name.split(":")[0] if name in ("saves", "api")
                                                                   else name].items())
        print(f"{name:<24} {spent:7.1f}s  {counts}")
        print(f"{'':<24} {outcome}")
    if fuzzing.LEAKS:
        print(f"messages with Python's words ({len(fuzzing.LEAKS)}), the first 10:")
        for line in fuzzing.LEAKS[:10]:
            print("  " + line)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
