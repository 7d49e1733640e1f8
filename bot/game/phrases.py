"""The engine's sentences as data, so that a presenter can say them in any language.

A `Phrase` is an English format string with named fields, the msgid of the `engine` message
catalog (bot/locales/engine.pot), and the values that fill its fields: card and pile notation,
numbers and typed text as `str` (never translated), or other Phrases (translated in turn).
`str(phrase)` is the English sentence; `phrase.render(translations)` says it through any object
with gettext's `gettext` and `ngettext` (a `gettext.GNUTranslations`, Babel's `Translations`):
the template is translated, then filled. `Sentences` is a few Phrases said one after another.

Fixed texts that stay plain strings (game titles) are marked with `N_`, which returns the text
unchanged: a presenter translates such a text with `gettext`. Every template is a string literal
at the call that makes it, so that Babel's extractor finds it (`EXTRACTION_KEYWORDS`); the
engine imports no translation machinery: it only says what it means.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Protocol, Self

# The calls whose literal arguments are the engine's msgids, as Babel's extractor takes them:
# a name and the positions (from 1) of its singular and plural, or None for the first argument.
EXTRACTION_KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "N_": None,
    "Phrase": None,
    "counted": (1, 2),
    "NotationError": None,
    "IllegalMoveError": None,
    "BeatenError": None,
    "UnknownGameError": None,
    "DealError": None,
    "SnapshotError": None,
}


class Translator(Protocol):
    """What a Phrase needs to be said in a language: gettext's two lookups."""

    def gettext(self, message: str, /) -> str:
        """The translation of `message`, or `message` itself."""
        ...

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        """The translation of the form of `singular`/`plural` that suits `count`."""
        ...


class English:
    """The Translator that says the engine's own English: every message as written."""

    def gettext(self, message: str, /) -> str:
        """`message` itself."""
        return message

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        """`singular` for one, `plural` for any other count."""
        return singular if count == 1 else plural


ENGLISH = English()


def N_(text: str) -> str:
    """Mark a fixed text (a game's title) as a msgid of the engine's catalog; return it unchanged."""
    return text


class Phrase:
    """One sentence (or part of one) the engine says: `template`, the English format string
    and msgid, such as "{card} to its foundation", and the values of its fields. Immutable;
    made often (a rule's reason for a move it refuses), so it keeps its values as given."""

    __slots__ = ("_values", "template")
    template: str
    _values: dict[str, str | int | Phrase]

    def __init__(self, template: str, /, **values: str | int | Phrase) -> None:
        """A phrase of `template` with its fields' `values` (numbers are said as their text)."""
        _set(self, "template", template)
        _set(self, "_values", values)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Phrase does not change: cannot set {name}")

    @classmethod
    def counted(cls, singular: str, plural: str, count: int, /, **values: str | int | Phrase) -> CountedPhrase:
        """A phrase worded by `count`, such as ("{count} redeal left", "{count} redeals left", 2);
        its field `count` is the number."""
        return CountedPhrase(singular, plural, count, **values)

    @classmethod
    def marked(cls, text: str) -> Phrase:
        """A text marked elsewhere with `N_` (a game's title) as a phrase without fields, so that
        it is translated where it fills another phrase's field."""
        return cls(text)

    @property
    def values(self) -> dict[str, str | Phrase]:
        """The values of the fields, by name: text (numbers as their text) or phrases."""
        return {name: value if isinstance(value, Phrase) else str(value) for name, value in self._values.items()}

    def render(self, translator: Translator = ENGLISH) -> str:
        """The phrase said through `translator`: its template translated, then filled with its
        values, phrases among them said the same way."""
        values = {name: value.render(translator) if isinstance(value, Phrase) else value
                  for name, value in self._values.items()}
        return self._translated(translator).format(**values)

    def _translated(self, translator: Translator) -> str:
        return translator.gettext(self.template)

    def _key(self) -> tuple[object, ...]:
        return (type(self), self.template, tuple(sorted(self.values.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        values = "".join(f", {name}={value!r}" for name, value in self.values.items())
        return f"{type(self).__name__}({self.template!r}{values})"

    def __str__(self) -> str:
        return self.render()

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.template, self._values))


class CountedPhrase(Phrase):
    """A phrase whose wording depends on a number, `count`: `template` is the English singular
    (the msgid), `plural` the English plural; a translator picks the form with `ngettext`."""

    __slots__ = ("count", "plural")
    plural: str
    count: int

    def __init__(self, singular: str, plural: str, count: int, /, **values: str | int | Phrase) -> None:
        """The phrase of `singular` or `plural` as `count` asks, with `values` and `count` itself."""
        super().__init__(singular, count=count, **values)
        _set(self, "plural", plural)
        _set(self, "count", count)

    def _translated(self, translator: Translator) -> str:
        return translator.ngettext(self.template, self.plural, self.count)

    def _key(self) -> tuple[object, ...]:
        return (*super()._key(), self.plural)

    def __reduce__(self) -> tuple[object, ...]:
        values = {name: value for name, value in self._values.items() if name != "count"}
        return (_rebuild_counted, (self.template, self.plural, self.count, values))


_set = object.__setattr__


def _rebuild(kind: type[Phrase], template: str, values: dict[str, str | int | Phrase]) -> Phrase:
    return kind(template, **values)


def _rebuild_counted(singular: str, plural: str, count: int, values: dict[str, str | int | Phrase]) -> Phrase:
    return CountedPhrase(singular, plural, count, **values)


@dataclass(frozen=True, slots=True)
class Sentences:
    """A text of several phrases said one after another, each its own msgid, with `separator`
    between them (a space; " · " for a header's parts)."""

    phrases: tuple[Phrase, ...]
    separator: str = " "

    def render(self, translator: Translator = ENGLISH) -> str:
        """The sentences said through `translator`, `separator` between them."""
        return self.separator.join(phrase.render(translator) for phrase in self.phrases)

    def __str__(self) -> str:
        return self.render()


def field_names(template: str) -> set[str]:
    """The names of the fields a format string fills, such as {"card", "target"}."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class PhrasedError(ValueError):
    """A ValueError of the engine's that a player reads: its message is a `phrase`, and its
    `template` and `values` say it in any language; `str(error)` is the English."""

    def __init__(self, template: str | Phrase, /, **values: str | int | Phrase) -> None:
        """The error saying `template` filled with `values` (or a whole Phrase, without values)."""
        self.phrase = template if isinstance(template, Phrase) else Phrase(template, **values)
        super().__init__(str(self.phrase))

    @property
    def template(self) -> str:
        """The message's English format string: its msgid in the engine's catalog."""
        return self.phrase.template

    @property
    def values(self) -> dict[str, str | Phrase]:
        """The values of the message's fields, by name."""
        return self.phrase.values

    @classmethod
    def from_phrase(cls, phrase: Phrase, /, *args: Any, **kwargs: Any) -> Self:
        """The error saying a phrase already made (its template was marked where it was made);
        the other arguments as the error's own constructor takes them."""
        return cls(phrase, *args, **kwargs)

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from the phrase, the rest of its state (`token`, `played`, ...) put back after.
        return (type(self), (self.phrase,), self.__dict__)
