"""Finding a thing by the name a person types: any case, with or without diacritics
and apostrophes, by id, full printed name, short name or a unique prefix; and "did you
mean" for a name that matches nothing.

Every lookup of a unit type goes through `resolve`, so `show`, `odds`, `duel`,
`balance` and a scenario's `type:` accept the same names; `suggest` words the hint
for unknown scenarios, rule options and data-file fields.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping

from dogfight.core.errors import UnknownName

_APOSTROPHES = re.compile(r"['’‘ʼ`´]")
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_PARENTHESISED = re.compile(r"\(([^)]*)\)")


def fold(text: str) -> str:
    """`text` reduced to what a person means by it: 'Mǎfēng (Hornet)' -> 'mafeng hornet',
    "Z'keth" -> 'zketh', 'sky-dragon' -> 'sky dragon' (case folded, diacritics and
    apostrophes dropped, other punctuation a single space)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    # The apostrophe joins ("Z'keth" is one word); other punctuation separates.
    return _NOT_ALNUM.sub(" ", _APOSTROPHES.sub("", bare.casefold())).strip()


def _compact(text: str) -> str:
    """`fold` without the spaces: 'sky dragon' and 'skydragon' are the same name."""
    return fold(text).replace(" ", "")


def short_names(name: str) -> list[str]:
    """The shorter names a printed name goes by: each parenthesised part ('Hornet' of
    'Mǎfēng (Hornet) Assault Fighter'), the name without it ('Mǎfēng Assault Fighter')
    and its first word ('Mǎfēng', 'Zaresh' of 'Zaresh Superiority Fighter')."""
    found = [part.strip() for part in _PARENTHESISED.findall(name) if part.strip()]
    outside = " ".join(_PARENTHESISED.sub(" ", name).split())
    if outside and outside != name:
        found.append(outside)
    words = outside.split()
    if len(words) > 1:
        found.append(words[0])
    return found


def resolve(query: str, names: Mapping[str, str | None], what: str) -> str:
    """The id in `names` (id -> printed name, or None) that `query` means.

    Tried in order, the first step that matches decides: the id exactly; the id or the
    full name folded (`fold`, spaces ignored); a short name (`short_names`); one word
    of the name ('Nova' of 'Starfury Nova'); a prefix of an id or a name. A step
    matching several ids refuses the name, listing them; a name matching nothing raises
    `UnknownName` with the close ones ("did you mean") and every id.
    """
    if query in names:
        return query
    wanted = _compact(query)
    if not wanted:
        raise UnknownName(f"no {what} '{query}' (an empty name); known: {', '.join(names)}")
    full: dict[str, set[str]] = {}
    short: dict[str, set[str]] = {}
    words: dict[str, set[str]] = {}
    for ident, name in names.items():
        for key in (ident, name or ""):
            if key:
                full.setdefault(_compact(key), set()).add(ident)
        for key in short_names(name or ""):
            short.setdefault(_compact(key), set()).add(ident)
        for word in fold(name or "").split():
            words.setdefault(word, set()).add(ident)
    steps: list[set[str]] = [
        full.get(wanted, set()),
        short.get(wanted, set()),
        words.get(wanted, set()),
        {i for key, ids in (*full.items(), *short.items()) if key.startswith(wanted) for i in ids},
    ]
    for found in steps:
        if len(found) == 1:
            return next(iter(found))
        if found:
            choices = ", ".join(_label(i, names.get(i)) for i in sorted(found))
            raise UnknownName(f"'{query}' could be more than one {what}: {choices}; say which")
    aliases = {ident: ident for ident in names}
    aliases.update({name: ident for ident, name in names.items() if name})
    hint = suggest(query, aliases)
    raise UnknownName(f"no {what} '{query}'{hint}; known: {', '.join(names)}")


def _label(ident: str, name: str | None) -> str:
    return f"{ident} ({name})" if name and name != ident else ident


def suggest(query: str, known: Iterable[str] | Mapping[str, str]) -> str:
    """' (did you mean 'X'?)' naming the known names closest to `query`, or '' when none
    is close; compared folded, so case and punctuation do not hide a near miss.

    `known` is the names, or a mapping of each name to what to suggest for it (a unit's
    printed name to its id)."""
    shown = known if isinstance(known, Mapping) else {name: name for name in known}
    by_fold: dict[str, str] = {}
    for name, answer in shown.items():
        by_fold.setdefault(fold(name), answer)
    close = difflib.get_close_matches(fold(query), list(by_fold), n=6, cutoff=0.6)
    answers = list(dict.fromkeys(by_fold[c] for c in close))[:3]
    if not answers:
        return ""
    return f" (did you mean {' or '.join(repr(a) for a in answers)}?)"
