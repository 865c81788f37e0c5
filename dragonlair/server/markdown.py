"""Player-written Markdown as safe HTML (issue 26): the workshop's descriptions and the
forum's posts.

Two steps, each a maintained library doing what it is for:

1. markdown-it-py renders CommonMark (plus tables and strikethrough) with ``html`` off, so
   raw HTML in the text comes out escaped, never as an element;
2. nh3 (the Rust ``ammonia`` sanitiser) then keeps only the tags and attributes of
   :data:`TAGS` and :data:`ATTRIBUTES`, only the URL schemes of :data:`SCHEMES`, and gives
   every link ``rel="nofollow ugc"``: links in user content get no search-engine credit and no
   ``window.opener``.

Images are not allowed (they would load from anywhere, tracking whoever reads the page).
"""

from __future__ import annotations

import re
from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

#: the elements a post may contain
TAGS: frozenset[str] = frozenset({
    "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote",
    "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "a",
    "table", "thead", "tbody", "tr", "th", "td",
})
#: the attributes each element may carry (``rel`` on links is nh3's, not the writer's)
ATTRIBUTES: dict[str, set[str]] = {
    "a": {"href", "title"},
    "ol": {"start"},
    "th": {"align"},
    "td": {"align"},
    "code": {"class"},
}
#: the URL schemes a link may use (relative links are allowed too)
SCHEMES: frozenset[str] = frozenset({"http", "https", "mailto"})
#: ``rel`` of every link
LINK_REL = "nofollow ugc"


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(
        ["table", "strikethrough"]).disable("image")


#: what is dropped from a URL before looking for a script scheme in it: blanks, control and
#: invisible characters (Unicode's too), quotes and backticks
_URL_NOISE = re.compile(r"[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028\u2029"
                        r"\u202f\u205f\u3000\ufeff'\"`]+")
_SCRIPT_URL = re.compile(r"(?:java|vb|live)script:|(?<![a-z0-9])data:")


def _filter(tag: str, attribute: str, value: str) -> str | None:
    """A code block keeps a ``language-x`` class (markdown-it's info string), nothing else;
    a link loses an ``href`` with a script scheme anywhere in it once blanks, control and
    invisible characters and quotes are taken out (the XSS cases of
    tests/server/test_sanitizer_xss.py: ``\u2028javascript:``, ``&nbsp;javascript:`` or
    ``"javascript:`` are relative URLs to a browser today, but no link needs them)."""
    if tag == "code" and attribute == "class":
        word = value.split()[0] if value.split() else ""
        ok = word.startswith("language-") and word[9:].replace("-", "").isalnum()
        return word if ok else None
    if attribute == "href" and _SCRIPT_URL.search(_URL_NOISE.sub("", value).lower()):
        return None
    return value


def sanitize(html: str) -> str:
    """HTML with everything outside the allow-list removed (the text of removed elements
    kept, except for ``script`` and ``style`` whose content goes too)."""
    return nh3.clean(
        html,
        tags=set(TAGS),
        attributes={k: set(v) for k, v in ATTRIBUTES.items()},
        url_schemes=set(SCHEMES),
        link_rel=LINK_REL,
        strip_comments=True,
        attribute_filter=_filter,
    )


def render(text: str) -> str:
    """The safe HTML of a Markdown text."""
    return sanitize(_parser().render(text))
