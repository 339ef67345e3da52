"""The public API, frozen: every public name, signature, result field and CLI option.

``tests/reference/api_snapshot.txt`` is the contract. A change to it is a
change to the API and must be deliberate: regenerate the file with
``CONCORD_UPDATE_SNAPSHOT=1 pytest tests/test_api_snapshot.py`` and review
the diff.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
import re
from pathlib import Path
from typing import Any

import click

import concord

SNAPSHOT = Path(__file__).parent / "reference" / "api_snapshot.txt"
MODULES = ("concord", "concord.dask", "concord.ml", "concord.plot", "concord.report")


def _signature(obj: Any) -> str:
    """Return the signature without private parameters (``_inference`` and the like)."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(...)"
    public = [p for p in sig.parameters.values() if not p.name.startswith("_")]
    # a function as a default (function=concord.krippendorff_alpha) prints its address
    return re.sub(r" at 0x[0-9a-f]+>", ">", str(sig.replace(parameters=public)))


def _inherited(cls: type) -> dict[str, Any]:
    """Public members defined by the class or its concord bases (not by object, tuple, ...)."""
    found: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        if base.__module__.startswith("concord") or base is cls:
            found.update(vars(base))
    return found


def _public(cls: type) -> bool:
    """Whether a base class is part of the contract: concord's public classes, or outside ones."""
    if cls.__module__.startswith("concord."):
        return cls.__name__ in concord.__all__
    return cls is not object


def _members(cls: type) -> list[str]:
    lines = []
    if dataclasses.is_dataclass(cls):
        fields = ", ".join(f.name for f in dataclasses.fields(cls) if not f.name.startswith("_"))
        lines.append(f"  fields: {fields}")
    for name, member in sorted(_inherited(cls).items()):
        if name.startswith("_") and name != "__call__":
            continue
        if isinstance(member, property | staticmethod | classmethod) or callable(member):
            kind = type(member).__name__
            target = member.__func__ if isinstance(member, staticmethod | classmethod) else member
            sig = "" if isinstance(member, property) else _signature(target)
            lines.append(f"  {kind} {name}{sig}")
        elif hasattr(member, "__get__") and hasattr(member, "func"):  # cached_property
            lines.append(f"  property {name}")
    return lines


def _module(name: str) -> list[str]:
    module = importlib.import_module(name)
    lines = [f"module {name}"]
    for attr in sorted(module.__all__):
        obj = getattr(module, attr)
        if isinstance(obj, type):
            # private bases may move or be renamed; public ones are part of the contract
            bases = ", ".join(b.__name__ for b in obj.__bases__ if _public(b))
            lines.append(f"class {name}.{attr}[{bases}]{_signature(obj)}")
            lines.extend(_members(obj))
        elif callable(obj):
            lines.append(f"def {name}.{attr}{_signature(obj)}")
        else:
            lines.append(f"value {name}.{attr}: {type(obj).__name__}")
    return lines


def _cli(command: click.Command, path: str) -> list[str]:
    lines = [f"command {path}"]
    for param in command.params:
        kind = "argument" if isinstance(param, click.Argument) else "option"
        names = "/".join(param.opts + param.secondary_opts)
        choices = getattr(param.type, "choices", None)
        shown = f" {list(choices)}" if choices else ""
        # click marks "no default" with a sentinel whose repr changes between versions
        unset = type(param.default).__name__ == "Sentinel" or param.default is None
        default = "-" if unset else repr(param.default)
        lines.append(f"  {kind} {names}: {param.type.name}{shown} default={default}")
    if isinstance(command, click.Group):
        for sub in sorted(command.commands):
            lines.extend(_cli(command.commands[sub], f"{path} {sub}"))
    return lines


def snapshot() -> str:
    """Return the API as text, one line per name, signature, field or option."""
    from concord._cli.main import main

    lines: list[str] = []
    for name in MODULES:
        lines.extend(_module(name))
    lines.extend(_cli(main, "concord"))
    return "\n".join(lines) + "\n"


def test_public_api_matches_the_snapshot():
    now = snapshot()
    if os.environ.get("CONCORD_UPDATE_SNAPSHOT"):
        SNAPSHOT.write_text(now, encoding="utf-8")
    expected = SNAPSHOT.read_text(encoding="utf-8")
    assert now == expected, (
        "the public API changed; if deliberate, regenerate tests/reference/api_snapshot.txt "
        "with CONCORD_UPDATE_SNAPSHOT=1 and review the diff"
    )


def test_snapshot_names_every_public_name():
    text = SNAPSHOT.read_text(encoding="utf-8")
    for name in concord.__all__:
        assert f"concord.{name}" in text
