"""`schema`: the JSON Schema of a format the tool reads or writes, or the list of them (`formats.schemas`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..formats.schemas import SCHEMAS, schema_entry

__all__ = ["SCHEMAS", "SchemaList", "SchemaShown", "schema_named"]  # SCHEMAS: the names the shell completes

if TYPE_CHECKING:  # the schemas themselves are built only when one is asked for: every command's text imports this
    from ..formats.schema_parts import SchemaEntry


class SchemaShown(NamedTuple):
    """One schema, whole: `foursquare schema NAME`."""

    entry: SchemaEntry

    def to_json(self) -> dict[str, Any]:
        return self.entry.document()


class SchemaList(NamedTuple):
    """Every schema's name, version and title: `foursquare schema`."""

    entries: tuple[SchemaEntry, ...]

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {"name": entry.name, "version": entry.version, "title": entry.title, "id": entry.document()["$id"]}
            for entry in self.entries
        ]


def schema_named(name: str | None) -> SchemaShown | SchemaList:
    """The schema `name` (UsageError for a name that names none), or all of them listed."""

    return SchemaList(SCHEMAS) if name is None else SchemaShown(schema_entry(name))
