"""Conformance files (JSONTestSuite, nativejson): jetjson must have json's outcome on each,
as bytes, bytearray, memoryview and (when the file is UTF-8) str."""

import json
import os

import pytest

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, capture, data_params, input_forms,
                          json_oracle, list_data_files, read_bytes)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, capture, data_params, input_forms,
                           json_oracle, list_data_files, read_bytes)

PARSING = "JSONTestSuite/test_parsing"


def check_file_all_forms(path):
    raw = read_bytes(path)
    expected = json_oracle(raw)
    for label, data in input_forms(raw):
        exp = expected if label != "str" else json_oracle(data)
        got = capture(jetjson.loads, data)
        assert_same_outcome(got, exp, f"{os.path.basename(path)} as {label}", jetjson)
    # jetjson keeps working after whatever happened above.
    assert jetjson.loads(b"[1]") == [1]
    return expected


@pytest.mark.parametrize("path", data_params(PARSING, prefixes=["y_"]))
def test_json_test_suite_accepted(path):
    expected = check_file_all_forms(path)
    assert not isinstance(expected, Raised), f"json rejects a y_ file: {expected!r}"


@pytest.mark.parametrize("path", data_params(PARSING, prefixes=["n_"]))
def test_json_test_suite_rejected(path):
    check_file_all_forms(path)


@pytest.mark.parametrize("path", data_params(PARSING, prefixes=["i_"]))
def test_json_test_suite_implementation_defined(path):
    check_file_all_forms(path)


@pytest.mark.parametrize("path", data_params("JSONTestSuite/test_transform"))
def test_json_test_suite_transform(path):
    check_file_all_forms(path)


@pytest.mark.parametrize("path", data_params("nativejson/roundtrip"))
def test_nativejson_roundtrip(path):
    expected = check_file_all_forms(path)
    assert not isinstance(expected, Raised)


@pytest.mark.parametrize("path", data_params("nativejson/jsonchecker"))
def test_nativejson_jsonchecker(path):
    check_file_all_forms(path)


@pytest.mark.parametrize("path", data_params("ndjson", suffix=".ndjson"))
def test_ndjson_files_whole_and_per_line(path):
    """loads is not an NDJSON reader: a whole multi-document file is "Extra data" for json,
    and each line alone has json's outcome."""
    check_file_all_forms(path)
    raw = read_bytes(path)
    for i, line in enumerate(raw.split(b"\n")):
        assert_same_outcome(capture(jetjson.loads, line), json_oracle(line),
                            f"{os.path.basename(path)} line {i + 1}", jetjson)


def test_json_test_suite_counts():
    """The suite is complete (a wrong data path must not pass silently) and json's known
    behaviour on it holds, so the parametrized tests above compare against real outcomes."""
    names = list_data_files(PARSING)
    if not names:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    assert len([n for n in names if n.startswith("y_")]) == 95
    assert len([n for n in names if n.startswith("n_")]) == 188
    folder = os.path.join(os.path.dirname(data_params(PARSING)[0].values[0]))
    accepted_n = sorted(
        n for n in names if n.startswith("n_")
        and not isinstance(capture(json.loads, read_bytes(os.path.join(folder, n))), Raised))
    assert accepted_n == ["n_number_NaN.json", "n_number_infinity.json",
                          "n_number_minus_infinity.json"]
    for n in accepted_n:
        value = jetjson.loads(read_bytes(os.path.join(folder, n)))
        assert isinstance(value, list) and len(value) == 1 and isinstance(value[0], float)
