"""Reports: scenario results -> text (PASS/FAIL lines and 'N passed, M failed'), JSON, or JUnit XML for CI."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from ..errors import clip_line


class Failure(str):
    """One failure line, which also knows its step and where in the scenario file it was written.

    `located` is true when the line itself starts with that place (a mistake in the file, which
    stopped the scenario); the text report then shows the line of the file with a caret."""

    def __new__(cls, text: str, step: int | None = None, location=None, located: bool = False):
        line = super().__new__(cls, text)
        line.step, line.location, line.located = step, location, located
        return line


@dataclass
class ScenarioResult:
    """How one scenario file went: its name, its path and its failures (none when it passed)."""

    name: str
    path: str
    failures: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def summary(results) -> str:
    passed = sum(r.passed for r in results)
    return f"{passed} passed, {len(results) - passed} failed"


def format_results(results) -> str:
    """'PASS name' or 'FAIL name' with the failures indented below it, then 'N passed, M failed'."""
    lines = []
    for r in results:
        lines.append(f"{'PASS' if r.passed else 'FAIL'} {r.name}")
        for f in r.failures:
            lines.append(f"    {f}")
            loc = getattr(f, "location", None)
            if getattr(f, "located", False) and loc is not None and loc.source_line:
                line, col = clip_line(loc.source_line.rstrip(), loc.col)
                lines += ["        " + line, "        " + " " * max(col - 1, 0) + "^"]
    return "\n".join(lines + [summary(results)])


def failure_json(f) -> dict:
    loc = getattr(f, "location", None)
    return {"message": str(f), "step": getattr(f, "step", None), "file": loc.file if loc else None,
            "line": loc.line if loc else None, "column": loc.col if loc else None}


def results_json(results) -> dict:
    """Every scenario with its failures (message, step, file, line, column), and the counts."""
    passed = sum(r.passed for r in results)
    return {"scenarios": [{"name": r.name, "path": r.path, "passed": r.passed,
                           "failures": [failure_json(f) for f in r.failures]} for r in results],
            "passed": passed, "failed": len(results) - passed}


def junit_xml(results) -> str:
    """The results as JUnit XML, the report format CI services read: one testcase per scenario."""
    failed = sum(not r.passed for r in results)
    suites = ET.Element("testsuites", tests=str(len(results)), failures=str(failed))
    suite = ET.SubElement(suites, "testsuite", name="rulebook scenarios", tests=str(len(results)),
                          failures=str(failed), errors="0", skipped="0")
    for r in results:
        case = ET.SubElement(suite, "testcase", name=r.name, classname=r.path, file=r.path)
        if r.failures:
            failure = ET.SubElement(case, "failure", message=str(r.failures[0]))
            failure.text = "\n".join(map(str, r.failures))
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
