"""The Markdown sanitiser (dragonlair/server/markdown.py) against cross-site scripting
filter-evasion cases, in the spirit of the OWASP XSS Filter Evasion Cheat Sheet: the cases of
tests/data/xss_cases.txt, and variants of them made here (the ``javascript:`` scheme in other
letter cases, entity encodings and with blanks and control characters inside; tags and
handlers in other letter cases).

Each case is rendered as Markdown (:func:`render`) and also cleaned as raw HTML
(:func:`sanitize`). The output is parsed with the standard library's HTML parser: every
element must be one of :data:`TAGS`, every attribute one its element may carry
(:data:`ATTRIBUTES`, and ``rel`` on a link), every ``href`` relative or of a scheme of
:data:`SCHEMES` (after entities are decoded, blanks and control characters removed and letters
lowered, as a browser reads it), no attribute value holds ``javascript:``, and no comment,
declaration or processing instruction is left. The number of cases is printed (``-s``) and
stated in docs/forum.md."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from dragonlair.server.markdown import ATTRIBUTES, LINK_REL, SCHEMES, TAGS, render, sanitize

CASES_FILE = Path(__file__).resolve().parent.parent / "data" / "xss_cases.txt"

#: the ``javascript:`` scheme as an attacker may write it
SCHEME_FORMS = [
    "JAVASCRIPT:", "jAvAsCrIpT:", "&#106;avascript:", "&#x6a;avascript:", "&#X6A;avascript:",
    "&#0000106avascript:", "java&#x09;script:", "java&#10;script:", "java\tscript:",
    "java\nscript:", "java\x00script:", " \x01javascript:", "javascript&colon;",
    "javascript&#58;", "&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;",
    "java%73cript:", "\u2028javascript:", "jav&Tab;ascript:",
]
#: tags and handlers in other letter cases
CASINGS = [("<script", ["<SCRIPT", "<sCrIpT"]), ("</script", ["</SCRIPT"]),
           ("onerror", ["ONERROR", "oNeRrOr"]), ("onload", ["OnLoAd"]),
           ("<img", ["<IMG", "<iMg"]), ("<svg", ["<SvG"]), ("<iframe", ["<IFRAME"]),
           ("<a ", ["<A "])]

#: what a browser drops from a URL before reading its scheme
_IGNORED = re.compile(r"[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f"
                      r"\u205f\u3000\ufeff]+")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")


def base_cases() -> list[str]:
    """The file's cases, their escapes read (module docs of the file)."""
    out = []
    for line in CASES_FILE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        out.append(line.encode("ascii").decode("unicode_escape"))
    return out


def all_cases() -> list[str]:
    """The file's cases and their variants, each once, in a stable order."""
    seen: dict[str, None] = {}
    for case in base_cases():
        seen[case] = None
        low = case.lower()
        at = low.find("javascript:")
        if at >= 0:
            for form in SCHEME_FORMS:
                seen[case[:at] + form + case[at + len("javascript:"):]] = None
        for word, others in CASINGS:
            if word in case:
                for other in others:
                    seen[case.replace(word, other)] = None
    return list(seen)


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.problems.append(f"element <{tag}>")
            return
        allowed = ATTRIBUTES.get(tag, set()) | ({"rel"} if tag == "a" else set())
        for name, value in attrs:
            if name not in allowed:
                self.problems.append(f"attribute {name} on <{tag}>")
            text = _IGNORED.sub("", value or "").lower()
            if re.search(r"(?:java|vb)script:", text):
                self.problems.append(f"script URL in {name}={value!r}")
            if name == "href":
                scheme = _SCHEME.match(text)
                if scheme is not None and scheme.group(1) not in SCHEMES:
                    self.problems.append(f"href scheme {scheme.group(1)!r}")
            if name == "rel" and value != LINK_REL:
                self.problems.append(f"rel={value!r}")
            if name == "class" and not re.fullmatch(r"language-[A-Za-z0-9-]+", value or ""):
                self.problems.append(f"class={value!r}")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_comment(self, data: str) -> None:
        self.problems.append("a comment")

    def handle_decl(self, decl: str) -> None:
        self.problems.append("a declaration")

    def handle_pi(self, data: str) -> None:
        self.problems.append("a processing instruction")

    def unknown_decl(self, data: str) -> None:
        self.problems.append("a declaration")


def problems(html: str) -> list[str]:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser.problems


def test_the_checker_finds_what_it_looks_for() -> None:
    assert problems('<img src=x onerror="alert(1)">') == ["element <img>"]
    assert problems('<a href="jav&#x09;ascript:alert(1)" onclick=x>y</a>') == [
        "script URL in href='jav\\tascript:alert(1)'", "href scheme 'javascript'",
        "attribute onclick on <a>"]
    assert problems('<a href="data:text/html,x" rel="nofollow ugc">y</a><!-- c -->') == [
        "href scheme 'data'", "a comment"]
    # what is allowed stays: links of the allowed schemes, relative ones, code classes
    ok = render("[a](https://ok.example) [b](/p) [c](mailto:x@example.org)\n\n```py\nx\n```")
    assert ok.count("<a ") == 3 and 'class="language-py"' in ok and problems(ok) == []


def test_no_case_makes_an_element_or_attribute_outside_the_allow_list() -> None:
    cases = all_cases()
    print(f"\nXSS filter-evasion cases: {len(base_cases())} in the file, {len(cases)} with "
          f"variants, each rendered as Markdown and cleaned as HTML")
    assert len(base_cases()) >= 300 and len(cases) >= 1000
    found = []
    for case in cases:
        for how, html in (("render", render(case)), ("sanitize", sanitize(case))):
            found += [f"{how}({case!r}): {p}" for p in problems(html)]
    assert found == []
