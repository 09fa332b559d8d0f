"""House-rule options: each game publishes its options once, and a session's rules resolve
against them (defaults filled in, every value checked), from a named set of them (a preset)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Self

from .errors import N_, MalformedInput, quote
from .words import Words

#: one house rule's value: the kinds an option takes (bool, int, choice, a list of choices or
#: of whole numbers), a number (a stored bar such as ``misdeal_at_most``), or null
RuleValue = bool | int | float | str | Sequence[int | str] | None


@dataclass(frozen=True)
class RuleOption:
    """One house-rule option: its key, kind, default, allowed values and a one-line description.

    kind is ``bool``, ``int``, ``choice`` (one of ``choices``), ``choices`` (a list drawn from
    ``choices``) or ``int_list`` (a list of whole numbers between ``minimum`` and ``maximum``).
    """

    key: str
    kind: str
    default: RuleValue
    description: str
    choices: tuple[int | str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    #: what a player reads: the option's name, its topic (auction, scoring, ...) and a name
    #: for each choice, all marked N_ for translation (the key and values stay codes)
    label: str = ""
    group: str = ""
    choice_labels: tuple[str, ...] = ()
    #: the seat counts the option applies to (a form offers it only there); empty: every count
    seats: tuple[int, ...] = ()

    def choice_label(self, value: object) -> str:
        """Return the words for one of the option's values (untranslated; pages translate)."""
        if value in self.choices and len(self.choice_labels) == len(self.choices):
            return self.choice_labels[self.choices.index(value)]
        return str(value)

    def check(self, value: object) -> RuleValue:
        """Return the value normalised, or raise ``invalid_rules`` quoting it."""
        where = f"rules.{self.key}"
        if value is None:
            if self.nullable:
                return None
            raise MalformedInput(
                "invalid_rules",
                "The house rule “{rule_t}” may not be null.",
                where,
                rule_t=self.label or self.key,
            )
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise self._bad(value, "The house rule “{rule_t}” must be true or false, not {value}.")
        if self.kind == "int":
            return self._int(value)
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise self._bad(
                value, "The house rule “{rule_t}” takes one of: {choices_t} (not {value})."
            )
        if self.kind in ("choices", "int_list"):
            if not isinstance(value, list):
                raise self._bad(value, "The house rule “{rule_t}” must be a list, not {value}.")
            items = [self._item(item) for item in value]
            if len(set(items)) != len(items):
                raise self._bad(
                    value, "The house rule “{rule_t}” must be a list without repeats, not {value}."
                )
            return sorted(items, key=self._order)
        raise AssertionError(f"unknown option kind {self.kind!r}")  # a programming error

    def _item(self, item: object) -> int | str:
        if self.kind == "int_list":
            return self._int(item)
        if isinstance(item, str) and item in self.choices:
            return item
        raise self._bad(
            item, "The house rule “{rule_t}” takes values from: {choices_t} (not {value})."
        )

    def _order(self, item: int | str) -> int | str:
        return self.choices.index(item) if self.kind == "choices" else item

    def _int(self, value: object) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # a whole number written 14.0 counts as 14, as in round inputs
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._bad(value, "The house rule “{rule_t}” must be a whole number, not {value}.")
        self._within(value)
        return value

    def _within(self, value: float) -> None:
        """Raise ``invalid_rules`` unless value lies between the option's minimum and maximum."""
        if self.minimum is not None and value < self.minimum:
            raise self._bad(
                value, "The house rule “{rule_t}” must be at least {minimum}, not {value}."
            )
        if self.maximum is not None and value > self.maximum:
            raise self._bad(
                value, "The house rule “{rule_t}” must be at most {maximum}, not {value}."
            )

    def _bad(self, value: object, template: str) -> MalformedInput:
        """Return ``invalid_rules`` for this option, quoting the value (template marked N_)."""
        return MalformedInput(
            "invalid_rules",
            N_(template),
            f"rules.{self.key}",
            rule_t=self.label or self.key,
            value=quote(value),
            choices_t=Words((self.choice_label(choice) for choice in self.choices), " / "),
            minimum=self.minimum,
            maximum=self.maximum,
        )


def label_of(options: Sequence[RuleOption], key: str) -> str:
    """Return the words naming the option with that key (marked N_; a message translates them)."""
    return next(option.label for option in options if option.key == key)


def grouped(
    options: Sequence[RuleOption], topics: Mapping[str, str]
) -> list[tuple[str, list[RuleOption]]]:
    """Return the options under their topics' words (untranslated), topics in the game's order.

    topics is the game's own (key: words), in the order a page lists them; within a topic the
    options keep the game's order; an option without a known topic comes last, under an empty
    heading.
    """
    order = list(topics)
    found: dict[str, list[RuleOption]] = {}
    for option in options:
        found.setdefault(option.group if option.group in topics else "", []).append(option)
    keys = sorted(found, key=lambda key: order.index(key) if key in order else len(order))
    return [(topics.get(key, ""), found[key]) for key in keys]


def rules_object(raw: object) -> Mapping[str, object]:
    """Return house-rule overrides as given (None: none), or raise ``invalid_rules``."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise MalformedInput(
            "invalid_rules",
            "House rules must be an object, not {value}.",
            "rules",
            value=quote(raw),
        )
    return raw


def resolve_rules(options: Sequence[RuleOption], overrides: object) -> dict[str, RuleValue]:
    """Return every option's effective value: the defaults with the table's overrides checked in."""
    overrides = rules_object(overrides)
    by_key = {option.key: option for option in options}
    for key in overrides:
        if key not in by_key:
            raise MalformedInput(
                "invalid_rules",
                "There is no house rule {key} in this game; known rules: {known}.",
                f"rules.{key}",
                key=quote(key),
                known=", ".join(by_key),
            )
    effective = {}
    for option in options:
        value = overrides.get(option.key, option.default)
        effective[option.key] = option.check(value)
    return effective


class HouseRules(Mapping[str, RuleValue]):
    """The house rules in force at one table: every option's value, defaults filled in once.

    Frozen, and read by attribute (``rules.min_bid``, typed by the subclass) or, where code
    walks all of them, as a mapping. Each game makes its own subclass naming its options
    (``MightyRules``, ``DalmutiRules``, ``DixitRules``); values are trusted (a session's stored
    rules were checked when it started), missing ones default. The values are the object's own
    attributes, so a read is a plain attribute lookup.
    """

    options: ClassVar[tuple[RuleOption, ...]] = ()

    def __init__(self, values: Mapping[str, object] | None = None) -> None:
        given = dict(values or {})
        filled = {option.key: given.get(option.key, option.default) for option in self.options}
        vars(self).update(filled)

    def __getitem__(self, key: str) -> RuleValue:
        value: RuleValue = vars(self)[key]
        return value

    @classmethod
    def of(cls, rules: Mapping[str, object] | None) -> Self:
        """Return rules as this type: as they are when they already are, else defaults filled."""
        return rules if isinstance(rules, cls) else cls(rules)

    def __iter__(self) -> Iterator[str]:
        return iter(vars(self))

    def __len__(self) -> int:
        return len(vars(self))

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"house rules are frozen; {key} cannot change")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({vars(self)!r})"


@dataclass(frozen=True)
class Preset:
    """A named set of house rules a session may start from (``"preset": KEY`` beside rules).

    label and description are what a page shows (marked N_ where written); rules holds only the
    options that differ from their defaults, so the default preset's is empty.
    """

    key: str
    label: str
    description: str
    rules: Mapping[str, object] = field(default_factory=dict)
    #: the seat counts the preset is for (a form offers it only there); empty: every count
    seats: tuple[int, ...] = ()


def find_preset(presets: Sequence[Preset], key: object = None) -> Preset | None:
    """Return the preset named key (None: the first, the default), or raise ``invalid_rules``."""
    if key is None:
        return presets[0] if presets else None
    for preset in presets:
        if isinstance(key, str) and preset.key == key:
            return preset
    if presets:
        raise MalformedInput(
            "invalid_rules",
            "There is no preset {value} in this game; known presets: {known}.",
            "preset",
            value=quote(key),
            known=", ".join(preset.key for preset in presets),
        )
    raise MalformedInput(
        "invalid_rules", "This game has no presets, so not {value}.", "preset", value=quote(key)
    )
