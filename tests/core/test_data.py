"""Reading data files: YAML errors and validation errors name the file and the field."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from dogfight.core import DataError
from dogfight.core.data import convert, package_data, parse_yaml, read_yaml


class Point(msgspec.Struct, frozen=True):
    x: float
    y: float = 0.0


class Bag(msgspec.Struct, frozen=True):
    name: str
    items: list[Point]


def test_read_yaml_ok(tmp_path: Path) -> None:
    path = tmp_path / "unit.yaml"
    path.write_text("name: Wasp\nitems:\n  - {x: 1}\n", encoding="utf-8")
    assert read_yaml(path) == {"name": "Wasp", "items": [{"x": 1}]}
    assert read_yaml(str(path)) == {"name": "Wasp", "items": [{"x": 1}]}


def test_read_yaml_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(DataError) as err:
        read_yaml(path)
    assert str(err.value) == f"{path}: no such file"


def test_read_yaml_directory(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="is a folder, not a file"):
        read_yaml(tmp_path)


def test_read_yaml_bad_yaml_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("name: Wasp\nitems:\n  - {x: 1\n  - y: [\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        read_yaml(path)
    message = str(err.value)
    assert message.startswith(f"{path}: line ")
    assert "bad YAML" in message


def test_parse_yaml_reports_the_right_line() -> None:
    text = "a: 1\nb: 2\nc: [1, 2\nd: 4\n"
    with pytest.raises(DataError) as err:
        parse_yaml(text, "x.yaml")
    line = int(str(err.value).split("line ")[1].split(":")[0])
    assert 3 <= line <= 4  # the unclosed list opened on line 3
    assert str(err.value).startswith("x.yaml: line ")


def test_read_yaml_bad_encoding(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"name: \xff\xfe\n")
    with pytest.raises(DataError, match=r"latin\.yaml: cannot read"):
        read_yaml(path)


def test_convert_ok_and_lenient_numbers() -> None:
    bag = convert({"name": "b", "items": [{"x": 1}, {"x": "2.5", "y": 3}]}, Bag, "b.yaml")
    assert bag == Bag("b", [Point(1.0), Point(2.5, 3.0)])


def test_convert_wrong_type_names_file_and_field() -> None:
    raw = {"name": "b", "items": [{"x": 1}, {"x": "far"}]}
    with pytest.raises(DataError) as err:
        convert(raw, Bag, "units/bag.yaml")
    message = str(err.value)
    assert message.startswith("units/bag.yaml: field 'items[1].x': ")
    assert "Expected `float`" in message
    assert " - at " not in message


def test_convert_missing_field_names_the_field() -> None:
    raw = {"name": "b", "items": [{"x": 1}, {"y": 2}]}
    with pytest.raises(DataError) as err:
        convert(raw, Bag, "bag.yaml")
    assert str(err.value) == "bag.yaml: field 'items[1].x': missing"


def test_convert_top_level_error() -> None:
    with pytest.raises(DataError) as err:
        convert([1, 2], Bag, "bag.yaml")
    message = str(err.value)
    assert message.startswith("bag.yaml: ")
    assert "Expected `object`" in message


def test_convert_top_level_field() -> None:
    with pytest.raises(DataError, match=r"^bag\.yaml: field 'name': "):
        convert({"name": 5, "items": []}, Bag, "bag.yaml")


def test_package_data_directory_exists() -> None:
    root = package_data()
    assert root.is_dir()
    assert root.name == "data"
    acta = package_data("acta")
    assert acta.is_dir()
    assert acta.parent == root
