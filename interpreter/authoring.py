"""Starting files for authors: a base ruleset -> the commented text of a new variant of it."""
from __future__ import annotations

import yaml


def _scalar(value) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True).strip().removesuffix("...").strip()


def variant_template(rules, base: str, name: str, schema: str) -> str:
    """A variant file that extends `base`: its name, title and text, and every parameter it could
    turn, commented out with its current value, its choices and its note. `schema` is the path of
    the JSON Schema for editors (the first line's modeline)."""
    lines = [
        f"# yaml-language-server: $schema={schema}",
        f"# A variant of {rules.title}. Only what you write here changes; everything else comes from",
        f"# '{base}'. Maps merge by key, lists and plain values replace, and null removes.",
        "# Check it with: rulebook validate THIS_FILE   Try it with: rulebook simulate THIS_FILE",
        f"extends: {base}",
        f"name: {name}",
        f"title: {rules.title} (variant)",
        "text: >",
        f"  {rules.title} with ... (say in one line what this variant changes).",
    ]
    if rules.params:
        lines += ["", "# Parameters you can turn: remove the '# ' in front of 'parameters:' and of each line",
                  "# you change (an empty 'parameters:' would remove them all: null removes).",
                  "# parameters:"]
        for pname, value in rules.params.items():
            note = " ".join(rules.param_texts.get(pname, "").split())
            choices = rules.param_choices.get(pname)
            if note:
                lines.append(f"#   ({pname} - {note})")
            if choices:
                lines.append(f"#   ({pname} is one of: {', '.join(_scalar(c) for c in choices)})")
            lines.append(f"#   {pname}: {_scalar(value)}")
    lines += [
        "",
        "# Other sections work the same way, for example:",
        "# players: {min: 2, max: 6}",
        "# limits: {turns: 500}",
        f"# actions: {{{next(iter(rules.actions), 'some_action')}: null}}   # removes an action",
        "",
    ]
    return "\n".join(lines)
