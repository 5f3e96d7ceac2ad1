"""Dataclasses of citm_catalog.json's records, shared by tests/test_typed.py and
bench/bench_typed.py (which adds this folder to its path)."""

from dataclasses import dataclass
from typing import Dict, List, Optional

__all__ = ["CitmPrice", "CitmArea", "CitmSeatCategory", "CitmPerformance", "CitmEvent"]


@dataclass
class CitmPrice:
    amount: int
    audienceSubCategoryId: int
    seatCategoryId: int


@dataclass
class CitmArea:
    areaId: int
    blockIds: List[int]


@dataclass
class CitmSeatCategory:
    areas: List[CitmArea]
    seatCategoryId: int


@dataclass
class CitmPerformance:
    eventId: int
    id: int
    logo: Optional[str]
    name: Optional[str]
    prices: List[CitmPrice]
    seatCategories: List[CitmSeatCategory]
    seatMapImage: Optional[str]
    start: int
    venueCode: str


@dataclass
class CitmEvent:
    description: Optional[str]
    id: int
    logo: Optional[str]
    name: str
    subTopicIds: List[int]
    subjectCode: Optional[str]
    subtitle: Optional[str]
    topicIds: List[int]
