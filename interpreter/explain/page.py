"""A Markdown document of explain (the rulebook or the reference) -> one self-contained HTML page: well-formed
(every element closed, so that an XML parser reads it), its style inline, no script, nothing fetched.

It reads the Markdown explain writes, not any Markdown: headings, paragraphs, bullets nested by two spaces,
numbered lists, tables, a rule (---), **bold**, *italics*, `code` and web addresses, which become links."""
from __future__ import annotations

import html
import re

STYLE = """
body { font: 16px/1.5 Georgia, 'Times New Roman', serif; color: #222; background: #fdfbf7; margin: 0; }
main { max-width: 46em; margin: 0 auto; padding: 1.5em 1.2em 4em; }
h1 { font-size: 2.2em; margin: 0.2em 0 0; }
h2 { font-size: 1.45em; border-bottom: 1px solid #d8d0c0; margin-top: 1.8em; }
h3 { font-size: 1.15em; margin-top: 1.4em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #d8d0c0; padding: 0.15em 0.6em; text-align: left; }
th { background: #f1ebe0; }
code { font: 0.88em/1.3 Menlo, Consolas, monospace; background: #f1ebe0; padding: 0 0.2em; }
li { margin: 0.15em 0; }
hr { border: 0; border-top: 1px solid #d8d0c0; margin: 2em 0 1em; }
a { color: #6a3d00; }
""".strip()

INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|(https?://[^\s)<,;]+[^\s)<,;.])")


def inline(text: str) -> str:
    """One line's text: escaped, with code, bold, italics and links."""
    out, pos = [], 0
    for m in INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()], quote=False))
        code, bold, em, url = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code, quote=False)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline(bold)}</strong>")
        elif em is not None:
            out.append(f"<em>{inline(em)}</em>")
        else:
            out.append(f'<a href="{html.escape(url)}">{html.escape(url, quote=False)}</a>')
        pos = m.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def cells(row: str) -> list[str]:
    """A Markdown table row's cells (a `\\|` stays in its cell)."""
    parts = re.split(r"(?<!\\)\|", row.strip())[1:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def body(markdown: str) -> list[str]:
    """The HTML of the document's lines."""
    out: list[str] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        heading = re.match(r"(#{1,4}) (.*)", line)
        if heading:
            level = len(heading.group(1))
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
            i += 1
            continue
        if line.strip() == "---":
            out.append("<hr/>")
            i += 1
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            out.append("<table>")
            out.append("<tr>" + "".join(f"<th>{inline(c)}</th>" for c in rows[0]) + "</tr>")
            for row in rows[2:]:
                out.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
            out.append("</table>")
            continue
        if re.match(r"\s*(- |\d+\. )", line):
            items = []
            while i < len(lines) and re.match(r"\s*(- |\d+\. )", lines[i]):
                items.append(lines[i])
                i += 1
            out += listing(items)
            continue
        text = []
        while i < len(lines) and lines[i].strip() and not re.match(r"(#{1,4} |\||\s*- |\d+\. |---$)", lines[i]):
            text.append(lines[i].strip())
            i += 1
        out.append(f"<p>{inline(' '.join(text))}</p>")
    return out


def listing(items: list[str]) -> list[str]:
    """Bullets and numbered items, nested by their indentation, as lists in lists."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []     # (indentation, tag) of the lists open
    for item in items:
        m = re.match(r"(\s*)(- |\d+\. )(.*)", item)
        depth, tag, text = len(m.group(1)), "ol" if m.group(2)[0].isdigit() else "ul", m.group(3)
        while stack and stack[-1][0] > depth:
            out.append(f"</li></{stack.pop()[1]}>")
        if stack and stack[-1][0] == depth and stack[-1][1] != tag:
            out.append(f"</li></{stack.pop()[1]}>")
        if not stack or stack[-1][0] < depth:
            out.append(f"<{tag}>")
            stack.append((depth, tag))
        else:
            out.append("</li>")
        out.append(f"<li>{inline(text)}")
    while stack:
        out.append(f"</li></{stack.pop()[1]}>")
    return out


def markdown_page(markdown: str, title: str) -> str:
    """A whole HTML page of a Markdown document of explain."""
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8"/>',
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
        f"<title>{html.escape(title, quote=False)}</title>",
        f"<style>\n{STYLE}\n</style>",
        "</head>",
        "<body><main>",
        *body(markdown),
        "</main></body>",
        "</html>",
        "",
    ])
