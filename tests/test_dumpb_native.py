"""dumpb's datetime, date, time and uuid.UUID values (and keys) against orjson.dumps.

The oracle is the installed orjson. Where orjson reads freed or foreign memory (a
tzinfo whose utcoffset() raises or returns a non-timedelta) it has no usable answer; those
cases check that dumpb raises the Python exception instead (marked "no oracle").
"""

import datetime as dt
import gc
import subprocess
import sys
import tracemalloc
import uuid
import zoneinfo

import orjson
import pytest
from dumpb_util import check_same, outcome
from hypothesis import given, settings
from hypothesis import strategies as st

import jetjson

DT_OPTS = [orjson.OPT_NAIVE_UTC, orjson.OPT_UTC_Z, orjson.OPT_OMIT_MICROSECONDS,
           orjson.OPT_PASSTHROUGH_DATETIME]
# every option that changes these values, alone and in pairs (and all of them)
OPTION_SETS = [0] + DT_OPTS + [a | b for i, a in enumerate(DT_OPTS) for b in DT_OPTS[i + 1:]] + [
    orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z | orjson.OPT_OMIT_MICROSECONDS]
ZONES = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
         "Pacific/Chatham", "America/St_Johns", "Africa/Monrovia", "Asia/Kathmandu"]

try:
    from dateutil import tz as dateutil_tz
except ImportError:  # pragma: no cover - optional
    dateutil_tz = None


def both(obj, option=0, default=None):
    exp = outcome(orjson.dumps, obj, option=option, default=default)
    got = outcome(jetjson.dumpb, obj, option=option, default=default)
    check_same(got, exp, f"{obj!r} option={option}")
    return got


fixed_offsets = st.builds(
    lambda s, us: dt.timezone(dt.timedelta(seconds=s, microseconds=us)),
    st.integers(-86399, 86399), st.integers(0, 999999))
zones = st.sampled_from(ZONES).map(zoneinfo.ZoneInfo)
tzinfos = st.one_of(st.none(), st.just(dt.timezone.utc), fixed_offsets, zones)


@settings(max_examples=1500, deadline=None)
@given(st.datetimes(timezones=tzinfos, allow_imaginary=True), st.sampled_from(OPTION_SETS))
def test_datetimes(value, option):
    both(value, option)
    both([value, {"k": value}], option | orjson.OPT_INDENT_2)
    both({value: 1}, option | orjson.OPT_NON_STR_KEYS)


@settings(max_examples=500, deadline=None)
@given(st.dates(), st.times(), st.sampled_from(OPTION_SETS))
def test_dates_and_times(day, time, option):
    both(day, option)
    both(time, option)
    both({day: 1, time: 2}, option | orjson.OPT_NON_STR_KEYS)


def test_every_whole_second_offset():
    # orjson drops the offset's seconds into the minutes (half up, +23:60 included) and
    # counts a negative offset down from a day; all of them, plus a fraction of a second
    base = dt.datetime(2020, 1, 2, 3, 4, 5)
    values = [base.replace(tzinfo=dt.timezone(dt.timedelta(seconds=s, microseconds=us)))
              for s in range(-86399, 86400) for us in (0, 999999)
              if abs(dt.timedelta(seconds=s, microseconds=us)) < dt.timedelta(days=1)]
    for option in (0, orjson.OPT_UTC_Z):
        assert jetjson.dumpb(values, option=option) == orjson.dumps(values, option=option)


@pytest.mark.parametrize("option", OPTION_SETS)
def test_edges(option):
    for value in [dt.datetime.min, dt.datetime.max, dt.datetime(5, 1, 2, 3, 4, 5, 6),
                  dt.datetime(999, 12, 31), dt.datetime(1000, 1, 1), dt.date.min, dt.date.max,
                  dt.time.min, dt.time.max, dt.time(0, 0, 0, 1),
                  dt.datetime(2020, 1, 2, fold=1),
                  dt.datetime(2020, 11, 1, 1, 30, fold=0, tzinfo=zoneinfo.ZoneInfo("America/New_York")),
                  dt.datetime(2020, 11, 1, 1, 30, fold=1, tzinfo=zoneinfo.ZoneInfo("America/New_York")),
                  dt.datetime(1883, 6, 2, tzinfo=zoneinfo.ZoneInfo("Europe/Paris"))]:
        both(value, option)


@pytest.mark.skipif(dateutil_tz is None, reason="dateutil not installed")
@pytest.mark.parametrize("option", [0, orjson.OPT_UTC_Z])
def test_dateutil(option):
    for tz in [dateutil_tz.gettz("Europe/Paris"), dateutil_tz.gettz("America/New_York"),
               dateutil_tz.tzutc(), dateutil_tz.tzoffset(None, -5 * 3600 - 7), dateutil_tz.tzlocal()]:
        for fold in (0, 1):
            both(dt.datetime(2020, 11, 1, 1, 30, 5, 6, fold=fold, tzinfo=tz), option)
            both(dt.datetime(2020, 6, 1, tzinfo=tz), option)


class NormalizingTZ(dt.tzinfo):
    """pytz's shape: the offset orjson uses is normalize(dt).utcoffset()."""

    def utcoffset(self, d):
        return dt.timedelta(hours=1)

    def normalize(self, d):
        return d.replace(tzinfo=dt.timezone(dt.timedelta(hours=2, minutes=30)))


class ConvertingTZ(dt.tzinfo):
    """pendulum's shape (it has convert): the datetime's own utcoffset()."""

    def utcoffset(self, d):
        return dt.timedelta(hours=-3)

    def convert(self, d):  # pragma: no cover - never called
        raise AssertionError


def test_tz_libraries_by_shape():
    for tz in (NormalizingTZ(), ConvertingTZ()):
        for option in (0, orjson.OPT_UTC_Z):
            both(dt.datetime(2021, 3, 4, 5, 6, 7, tzinfo=tz), option)


class RaisingTZ(dt.tzinfo):
    def utcoffset(self, d):
        raise ValueError("no offset here")


class NoneTZ(dt.tzinfo):
    def utcoffset(self, d):
        return None


class BadTypeTZ(dt.tzinfo):
    def utcoffset(self, d):
        return "+01:00"


class RaisingLaterTZ(dt.tzinfo):
    """Answers once (the dict's hash of the key), then raises."""

    def __init__(self):
        self.calls = 0

    def utcoffset(self, d):
        self.calls += 1
        if self.calls > 1:
            raise ValueError("no offset here")
        return dt.timedelta(0)


def test_utcoffset_raises_no_oracle():
    # orjson crashes (reads a NULL result): dumpb propagates the exception
    with pytest.raises(ValueError, match="no offset here"):
        jetjson.dumpb(dt.datetime(2020, 1, 2, tzinfo=RaisingTZ()))
    with pytest.raises(ValueError, match="no offset here"):
        jetjson.dumpb([dt.datetime(2020, 1, 2, tzinfo=RaisingTZ())], option=jetjson.OPT_INDENT_2)
    key = dt.datetime(2020, 1, 2, tzinfo=RaisingLaterTZ())
    with pytest.raises(ValueError, match="no offset here"):
        jetjson.dumpb({key: 1}, option=jetjson.OPT_NON_STR_KEYS)


def test_utcoffset_wrong_type_no_oracle():
    with pytest.raises(TypeError):
        jetjson.dumpb(dt.datetime(2020, 1, 2, tzinfo=BadTypeTZ()))


def test_utcoffset_none_like_orjson():
    # orjson reads fields of None here: ask it in a child process in case that crashes
    code = ("import orjson, datetime as dt\n"
            "class T(dt.tzinfo):\n    def utcoffset(self, d): return None\n"
            "print(orjson.dumps(dt.datetime(2020, 1, 2, 3, tzinfo=T())).decode())")
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if child.returncode != 0:
        pytest.skip("orjson crashed on this input")
    got = jetjson.dumpb(dt.datetime(2020, 1, 2, 3, tzinfo=NoneTZ())).decode()
    assert got == child.stdout.strip()


def test_time_with_tzinfo():
    value = dt.time(1, 2, 3, 4, tzinfo=dt.timezone.utc)
    both(value)  # orjson's value message
    both({value: 1}, orjson.OPT_NON_STR_KEYS)  # and its different key message
    both(value, default=str)  # an error, not a case for default
    both(dt.time(1, 2, tzinfo=NoneTZ()))


class SubDateTime(dt.datetime):
    pass


class SubDate(dt.date):
    pass


class SubTime(dt.time):
    pass


class SubUUID(uuid.UUID):
    pass


@pytest.mark.parametrize("option", [0, orjson.OPT_PASSTHROUGH_SUBCLASS, orjson.OPT_NON_STR_KEYS])
def test_subclasses_go_to_default(option):
    for value in (SubDateTime(2020, 1, 2), SubDate(2020, 1, 2), SubTime(1, 2), SubUUID(int=5)):
        both(value, option)
        both(value, option, default=str)
        both({value: 1}, option)


@pytest.mark.parametrize("option", [orjson.OPT_PASSTHROUGH_DATETIME,
                                    orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS])
def test_passthrough_datetime(option):
    for value in (dt.datetime(2020, 1, 2, 3), dt.date(2020, 1, 2), dt.time(1, 2)):
        both(value, option)
        both(value, option, default=lambda v: v.isoformat() + "!")
        both({value: 1}, option)  # keys are still written as text


uuids = st.one_of(st.integers(0, 2**128 - 1).map(lambda i: uuid.UUID(int=i)),
                  st.builds(uuid.uuid4), st.builds(uuid.uuid1))


@settings(max_examples=500, deadline=None)
@given(st.lists(uuids, max_size=5))
def test_uuids(values):
    both(values)
    both({v: 1 for v in values}, orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)


def test_uuid_edges():
    for i in (0, 1, 2**64 - 1, 2**64, 2**127, 2**128 - 1, 0x0123456789ABCDEF0123456789ABCDEF):
        both(uuid.UUID(int=i))
        both(uuid.UUID(int=i), orjson.OPT_INDENT_2)
    for name in ("NAMESPACE_DNS", "NAMESPACE_URL", "NIL", "MAX"):
        if hasattr(uuid, name):
            both(getattr(uuid, name))


def test_native_keys_mixed():
    value = {dt.datetime(2020, 1, 2): 1, dt.date(2020, 1, 1): 2, dt.time(1, 2): 3,
             uuid.UUID(int=7): 4, "s": 5}
    for option in OPTION_SETS:
        both(value, option | orjson.OPT_NON_STR_KEYS)
        both(value, option | orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)
        both(value, option)  # without NON_STR_KEYS: orjson's key error


def test_refcounts():
    tz = dt.timezone(dt.timedelta(hours=3))
    zone = zoneinfo.ZoneInfo("Europe/Paris")
    values = [dt.datetime(2020, 1, 2, tzinfo=tz), dt.datetime(2020, 1, 2, tzinfo=zone),
              dt.datetime(2020, 1, 2, tzinfo=NormalizingTZ()), dt.date(2020, 1, 2), dt.time(1, 2),
              uuid.UUID(int=99)]
    before = [sys.getrefcount(v) for v in values] + [sys.getrefcount(tz), sys.getrefcount(zone)]
    for _ in range(1000):
        jetjson.dumpb(values)
        jetjson.dumpb({v: 1 for v in values}, option=jetjson.OPT_NON_STR_KEYS)
    after = [sys.getrefcount(v) for v in values] + [sys.getrefcount(tz), sys.getrefcount(zone)]
    assert before == after


def _growth(fn, rounds=3000):
    for _ in range(500):  # warm up: caches, zoneinfo's, the first exceptions' machinery
        fn()
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(rounds):
            fn()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()


def test_no_leaks_success_and_errors():
    ok = [dt.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=zoneinfo.ZoneInfo("Asia/Kolkata")),
          dt.datetime(2020, 1, 2, tzinfo=NormalizingTZ()), uuid.uuid4(), dt.time(1, 2)]
    raising = dt.datetime(2020, 1, 2, tzinfo=RaisingTZ())
    time_tz = dt.time(1, tzinfo=dt.timezone.utc)
    key = dt.datetime(2020, 1, 2, tzinfo=RaisingLaterTZ())
    raising_key = {key: 1}

    def run():
        jetjson.dumpb(ok)
        for bad in (raising, time_tz, [1, raising], {time_tz: 1}, raising_key):
            try:
                jetjson.dumpb(bad, option=jetjson.OPT_NON_STR_KEYS)
            except (ValueError, TypeError):
                pass

    # a leak grows in every window (one object per call: 3000 x 32 bytes at least);
    # caches warming up elsewhere in the process do not, nor what xdist's own thread
    # allocates meanwhile (tracemalloc sees every thread: 8 KB once in CI)
    assert min(_growth(run) for _ in range(5)) < 16384


@pytest.mark.skipif(sys.version_info < (3, 12), reason="own-GIL interpreters need 3.12+")
def test_native_types_in_an_isolated_interpreter():
    # the module must load there even where the datetime C API is missing (3.12 gives
    # own-GIL interpreters the pure-Python datetime); UUIDs are still written, and a
    # datetime is either written or handed to default, never a crash
    from test_subinterpreters import run_isolated

    run_isolated(
        "import datetime, uuid, jetjson\n"
        "u = uuid.UUID(int=0x0123456789ABCDEF0123456789ABCDEF)\n"
        "assert jetjson.dumpb(u) == b'\"' + str(u).encode() + b'\"'\n"
        "d = datetime.datetime(2020, 1, 2, 3, 4, 5, 6)\n"
        "out = jetjson.dumpb(d, default=lambda v: v.isoformat())\n"
        "assert out == b'\"2020-01-02T03:04:05.000006\"', out\n"
    )
