"""Integers past 64 bits against int enums and int Literals: msgspec reads such an
integer as a float unless a plain int is asked for, so an IntEnum or a Literal of ints
refuses it as a float (and a union with float takes it as one). Checked against msgspec."""

import enum
import json
from dataclasses import dataclass
from typing import List, Literal, Optional, Union

import pytest

import jetjson

msgspec = pytest.importorskip("msgspec")


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


INT_KINDS = [Level, Literal[1, 2], Optional[Level], Union[Level, float], Union[Literal[1, 2], float],
             List[Level], int, Optional[int]]
NUMBERS = ["-9223372036854775809", "-9223372036854775808", "18446744073709551615", "18446744073709551616",
           "-99999999999999999999", "123456789012345678901234567890", "1", "2", "3", "-1"]


def outcome(decode, data, t):
    try:
        return ("ok", decode(data, type=t))
    except (jetjson.ValidationError, msgspec.ValidationError) as e:
        return ("invalid", str(e))


@pytest.mark.parametrize("t", INT_KINDS, ids=str)
@pytest.mark.parametrize("number", NUMBERS)
def test_like_msgspec(t, number):
    data = f"[{number}]".encode() if getattr(t, "__origin__", None) is list else number.encode()
    mine, theirs = outcome(jetjson.loads, data, t), outcome(msgspec.json.decode, data, t)
    assert mine[0] == theirs[0] and str(mine[1]) == str(theirs[1])
    if mine[0] == "ok":
        assert type(mine[1]) is type(theirs[1])


@dataclass
class Box:
    ratio: float
    level: Union[Level, float, None]
    exact: Optional[Level]


@pytest.mark.parametrize("number", NUMBERS)
def test_fields_like_msgspec(number):
    """The same inside a dataclass: the value or the error, with its path."""
    data = f'{{"ratio": 0.5, "level": {number}, "exact": {number}}}'.encode()
    mine, theirs = outcome(jetjson.loads, data, Box), outcome(msgspec.json.decode, data, Box)
    assert mine == theirs
    assert json.loads(data)["level"] == int(number)
