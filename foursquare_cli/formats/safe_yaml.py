"""YAML read safely: PyYAML's safe loader with limits checked before anything is built.

The one way the tool reads YAML. PyYAML's safe loader (the C one where available)
with duplicate and merge keys refused; a document of more than 10,000 nodes, one
whose aliases expand to more than 10,000 nodes (a "billion laughs"), one nested
deeper than 50 levels, one with an alias inside the node it names, or with a
number of more than 40 characters is refused from the parser's events, before any
of it is built. A value PyYAML's constructor fails on in a way of its own
(`2024-02-30`, `!!bool maybe`: a ValueError or a KeyError, not a YAMLError) is
refused with its line too. The record writer checks what it writes against the
same limits (`prescan`), so whatever the tool writes, it reads back.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..errors import InvalidInput, quoted

MAX_NODES = 10_000
MAX_ALIAS_NODES = 10_000
MAX_DEPTH = 50
MAX_NUMBER_LENGTH = 40

YAMLError = yaml.YAMLError
ConstructorError = yaml.constructor.ConstructorError
Node = yaml.Node
ScalarNode = yaml.ScalarNode
MappingNode = yaml.MappingNode
SequenceNode = yaml.SequenceNode

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


def _read_as_number(value: str) -> bool:
    """Whether a plain scalar's text is read as a number: the loader's own resolvers decide, so a word of hex
    letters (`3f78...e2`, `CCCC`) is text, as the loader reads it."""
    resolvers = _Loader.yaml_implicit_resolvers.get(value[:1], [])
    return any(tag in _NUMBER_TAGS and regexp.match(value) for tag, regexp in resolvers)


class _StrictLoader(_Loader):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a key repeated in one mapping (PyYAML keeps the last), merge keys and keys
    that are collections."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            line = key_node.start_mark.line + 1
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _refused(line, "merge keys ('<<') are not allowed in a record; write the keys out")
            if not isinstance(key_node, yaml.ScalarNode):
                raise _refused(line, "a key must be a plain word, not a list or a mapping")
            key = self.construct_object(key_node)
            if key in seen:
                raise _refused(
                    line, f"duplicate key {quoted(str(key))} (first at line {seen[key]}); a key may appear once"
                )
            seen[key] = line
        mapping: dict[Any, Any] = super().construct_mapping(node, deep)
        return mapping

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """A node built, or refused with its line when PyYAML's own constructor fails on its text in a way of its
        own (`2024-02-30`, `!!int abc`, `!!bool maybe`: a ValueError, a KeyError, ... instead of a YAMLError)."""
        try:
            return super().construct_object(node, deep)
        except (InvalidInput, yaml.YAMLError):
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as error:
            kind = node.tag.rsplit(":", 1)[-1]
            what = _TAG_WORDS.get(kind, f"!!{kind}")
            detail = f" ({error})" if kind == "timestamp" and type(error) is ValueError else ""  # day out of range
            value = quoted(str(node.value)) if isinstance(node, yaml.ScalarNode) else "the value"
            raise _refused(node.start_mark.line + 1, f"{value} cannot be read as {what}{detail}") from None


_TAG_WORDS = {"timestamp": "a date", "int": "a whole number", "float": "a number", "bool": "true or false"}


def _refused(line: int | None, message: str) -> InvalidInput:
    """A document refused before it is built (or a key the loader will not take), with its line."""
    return InvalidInput(message, line=line)


def _line_of(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark is not None else 1


def prescan(text: str) -> int:
    """Count what the document would build, from the parser's events, before building any of it.

    Raises InvalidInput (with the line where a limit is passed) for a document of more
    than MAX_NODES nodes as written, more than MAX_ALIAS_NODES nodes added by its
    aliases, nested deeper than MAX_DEPTH, an alias inside the node it names, or a
    number longer than MAX_NUMBER_LENGTH. Events come one at a time, so this
    costs no memory; the nodes are built only for a document that passes.
    """
    sizes: dict[str, int] = {}
    open_anchors: set[str] = set()
    stack: list[list[Any]] = []  # [anchor, expanded nodes so far] for each open collection
    written = aliased = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= MAX_DEPTH:
                raise _refused(_line_of(event), f"nested deeper than {MAX_DEPTH} levels; refused")
            stack.append([event.anchor, 1])
            if event.anchor:
                open_anchors.add(event.anchor)
            written += 1
            size = 0
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = stack.pop()
            if anchor:
                sizes[anchor] = size
                open_anchors.discard(anchor)
        elif isinstance(event, yaml.ScalarEvent):
            value = event.value
            if event.implicit[0] and len(value) > MAX_NUMBER_LENGTH and _read_as_number(value):
                limit = f"a number in a file has at most {MAX_NUMBER_LENGTH}"
                raise _refused(_line_of(event), f"a number of {len(value):,} characters; refused ({limit})")
            size = 1
            written += 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise _refused(_line_of(event), "an alias refers to the node that contains it; refused")
            size = sizes.get(event.anchor or "", 1)  # an undefined alias is the composer's to report
            aliased += size
            if aliased > MAX_ALIAS_NODES:
                raise _refused(
                    _line_of(event),
                    f"its aliases expand to more than {MAX_ALIAS_NODES:,} nodes; refused (a 'billion laughs' file?)",
                )
        else:
            continue
        if written > MAX_NODES:
            raise _refused(
                _line_of(event),
                f"more than {MAX_NODES:,} YAML nodes; refused (a record of a whole game has a few dozen)",
            )
        if stack:
            stack[-1][1] += size
    return written


def parse(text: str) -> tuple[Any, yaml.Node | None]:
    """The document (and its root node) of `text`: InvalidInput over a limit, YAMLError for a syntax error."""
    prescan(text)
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        return loader.construct_document(node), node
    finally:
        loader.dispose()


def reads_back(text: str, wanted: dict[str, Any]) -> bool:
    loader = _Loader(str(text))  # the safe loader; libyaml takes an exact str
    try:
        return bool(loader.get_single_data() == wanted)
    except yaml.YAMLError:
        return False
    finally:
        loader.dispose()


def dump(value: dict[str, Any]) -> str:
    try:
        return yaml.safe_dump(value, default_flow_style=False, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return ""
