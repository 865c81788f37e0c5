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


def _code_class(tag: str, attribute: str, value: str) -> str | None:
    """A code block keeps a ``language-x`` class (markdown-it's info string), nothing else."""
    if tag == "code" and attribute == "class":
        word = value.split()[0] if value.split() else ""
        ok = word.startswith("language-") and word[9:].replace("-", "").isalnum()
        return word if ok else None
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
        attribute_filter=_code_class,
    )


def render(text: str) -> str:
    """The safe HTML of a Markdown text."""
    return sanitize(_parser().render(text))
