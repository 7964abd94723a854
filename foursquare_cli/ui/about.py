"""What the tool says about itself: `foursquare config` (the settings in force) and `--version`."""

from __future__ import annotations

from ..app.config import SETTING_DEFAULTS, SETTING_HELP, SettingsReport, VersionReport
from ..app.schema import SchemaList, SchemaShown
from ..errors import display_name
from ..formats.jsonl import json_document
from ..rules.playout import PlayoutsInUse
from .output import Screen, Text, text_of


def settings_text(report: SettingsReport) -> str:
    """`foursquare config`: each setting, its value, and where it comes from; then the playouts in use."""
    settings = report.settings
    shown = display_name(str(settings.path))
    lines = [f"Settings file: {shown}" + ("" if settings.exists else " (none there: every setting is the default)")]
    for key, default in SETTING_DEFAULTS.items():
        value = settings.values.get(key, default)
        text = "true" if value is True else "false" if value is False else "none" if value is None else str(value)
        source = "from the file" if key in settings.values else "default"
        lines.append(f"  {key} = {text} ({source}): {SETTING_HELP[key]}")
    said = playouts_text(report.playouts)
    lines.append(said[0].upper() + said[1:])
    return "\n".join(lines)


def playouts_text(playouts: PlayoutsInUse) -> str:
    """`playouts in C`, or `playouts in Python` and why (`--version` and `config` say it)."""
    if playouts.why_not_c is None:
        return f"playouts in {playouts.language}"
    return f"playouts in {playouts.language}, some 30 times slower: {playouts.why_not_c}"


@text_of.register
def _settings_report(value: SettingsReport, screen: Screen) -> Text:
    return Text(settings_text(value) + "\n")


@text_of.register
def _version_report(value: VersionReport, screen: Screen) -> Text:
    return Text(f"foursquare {value.version} ({playouts_text(value.playouts)})\n", whole=True)


@text_of.register
def _schema_shown(value: SchemaShown, screen: Screen) -> Text:
    return Text(json_document(value.to_json()), whole=True)  # a document for a validator: never wrapped


@text_of.register
def _schema_list(value: SchemaList, screen: Screen) -> Text:
    lines = [f"{entry.name} (version {entry.version}): {entry.title}" for entry in value.entries]
    return Text(
        "\n".join(["Schemas (foursquare schema NAME prints one; docs/protocol.md says what each field means):", *lines])
        + "\n"
    )
