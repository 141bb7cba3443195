"""Windows paths, tested on any platform with ``PureWindowsPath``.

The engine names every file with ``paths.display_path(path, project_root)``: POSIX-style,
relative to the project root when inside it, else absolute. The SARIF reporter turns those
names into URIs (``sarif.path_uri``) and the project root into ``%SRCROOT%``
(``sarif.root_uri``). Both are pure functions of ``PurePath``s and strings, so what Windows
users get (drive letters, backslashes, case-insensitive roots, UNC shares, verbatim ``\\\\?\\``
paths, spaces and non-ASCII names) is pinned down here without a Windows machine.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Any, cast

import pytest

from burnlint.findings import Notification
from burnlint.paths import display_path
from burnlint.report import FORMATS, ReportContext
from burnlint.report import sarif as sarif_format
from factories import at, finding, related, result

ROOT = PureWindowsPath(r"C:\Users\Zoë\My Projects\trainer")

# (file, project root, reported path)
DISPLAY_CASES: list[tuple[PurePath, PurePath, str]] = [
    (ROOT / "src" / "main.rs", ROOT, "src/main.rs"),
    (PureWindowsPath(r"C:\Users\Zoë\My Projects\trainer\src\bin\ü b.rs"), ROOT, "src/bin/ü b.rs"),
    # forward slashes are Windows separators too
    (PureWindowsPath("C:/Users/Zoë/My Projects/trainer/src/lib.rs"), ROOT, "src/lib.rs"),
    # Windows compares paths without regard to case; the file's own spelling is kept
    (PureWindowsPath(r"c:\users\ZOË\my projects\TRAINER\Src\Lib.rs"), ROOT, "Src/Lib.rs"),
    # outside the root: absolute, with `/`
    (PureWindowsPath(r"C:\Users\Zoë\other\x.rs"), ROOT, "C:/Users/Zoë/other/x.rs"),
    (PureWindowsPath(r"D:\data\y.rs"), ROOT, "D:/data/y.rs"),
    # a root that merely starts with the same letters is not a parent
    (
        PureWindowsPath(r"C:\Users\Zoë\My Projects\trainer-2\z.rs"),
        ROOT,
        ("C:/Users/Zoë/My Projects/trainer-2/z.rs"),
    ),
    # UNC shares
    (
        PureWindowsPath(r"\\build-01\src\trainer\src\main.rs"),
        PureWindowsPath(r"\\build-01\src\trainer"),
        "src/main.rs",
    ),
    (PureWindowsPath(r"\\build-01\src\other\x.rs"), ROOT, "//build-01/src/other/x.rs"),
    # the root of a drive
    (PureWindowsPath(r"E:\main.rs"), PureWindowsPath("E:\\"), "main.rs"),
    # POSIX, for comparison
    (
        PurePosixPath("/home/zoë/trainer/src/main.rs"),
        PurePosixPath("/home/zoë/trainer"),
        ("src/main.rs"),
    ),
    (PurePosixPath("/srv/x.rs"), PurePosixPath("/home/zoë/trainer"), "/srv/x.rs"),
]


@pytest.mark.parametrize(("path", "root", "expected"), DISPLAY_CASES)
def test_display_path(path: PurePath, root: PurePath, expected: str) -> None:
    shown = display_path(path, root)
    assert shown == expected
    assert "\\" not in shown


# (reported path, URI, relative to %SRCROOT%)
URI_CASES: list[tuple[str, str, bool]] = [
    ("src/main.rs", "src/main.rs", True),
    ("src/bin/ü b.rs", "src/bin/%C3%BC%20b.rs", True),
    ("Src/Lib.rs", "Src/Lib.rs", True),
    ("src/#1 100%.rs", "src/%231%20100%25.rs", True),
    # a colon in a relative reference's first segment would read as a URI scheme
    ("a:b.rs", "a%3Ab.rs", True),
    ("C:/Users/Zoë/other/x.rs", "file:///C:/Users/Zo%C3%AB/other/x.rs", False),
    ("D:/data/y.rs", "file:///D:/data/y.rs", False),
    ("d:/data/y.rs", "file:///d:/data/y.rs", False),
    ("//build-01/src/other/x.rs", "file://build-01/src/other/x.rs", False),
    ("//build-01/src/a b/ü.rs", "file://build-01/src/a%20b/%C3%BC.rs", False),
    ("/srv/x.rs", "file:///srv/x.rs", False),
    ("/home/zoë/a b.rs", "file:///home/zo%C3%AB/a%20b.rs", False),
]


@pytest.mark.parametrize(("shown", "uri", "relative"), URI_CASES)
def test_path_uri(shown: str, uri: str, relative: bool) -> None:
    assert sarif_format.path_uri(shown) == (uri, relative)


@pytest.mark.parametrize(("path", "root", "shown"), DISPLAY_CASES)
def test_display_path_then_uri_never_keeps_a_backslash_or_a_raw_space(
    path: PurePath, root: PurePath, shown: str
) -> None:
    uri, _ = sarif_format.path_uri(display_path(path, root))
    assert "\\" not in uri
    assert " " not in uri
    assert uri.isascii()


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        (PureWindowsPath(r"C:\Users\Zoë\My Projects"), "file:///C:/Users/Zo%C3%AB/My%20Projects"),
        (PureWindowsPath("c:/"), "file:///c:/"),
        (PureWindowsPath(r"\\build-01\src\trainer"), "file://build-01/src/trainer"),
        (PureWindowsPath("\\\\build-01\\src\\"), "file://build-01/src/"),
        # verbatim (`\\?\`) paths, as some Windows APIs return them, lose their prefix
        (PureWindowsPath(r"\\?\C:\Users\x.rs"), "file:///C:/Users/x.rs"),
        (PureWindowsPath(r"\\?\UNC\build-01\src\x.rs"), "file://build-01/src/x.rs"),
        (PurePosixPath("/home/zoë/a b"), "file:///home/zo%C3%AB/a%20b"),
    ],
)
def test_file_uri(path: PurePath, uri: str) -> None:
    assert sarif_format.file_uri(path) == uri


@pytest.mark.parametrize("path", [PureWindowsPath(r"src\main.rs"), PureWindowsPath("C:relative")])
def test_file_uri_needs_an_absolute_path(path: PurePath) -> None:
    with pytest.raises(ValueError, match="absolute"):
        sarif_format.file_uri(path)


@pytest.mark.parametrize(
    ("root", "uri"),
    [
        (ROOT, "file:///C:/Users/Zo%C3%AB/My%20Projects/trainer/"),
        (PureWindowsPath("C:\\"), "file:///C:/"),
        (PureWindowsPath(r"\\build-01\src\trainer"), "file://build-01/src/trainer/"),
        (PurePosixPath("/home/zoë/trainer"), "file:///home/zo%C3%AB/trainer/"),
    ],
)
def test_root_uri(root: PurePath, uri: str) -> None:
    assert sarif_format.root_uri(root) == uri


def test_root_uri_of_a_relative_path_is_absolute() -> None:
    uri = sarif_format.root_uri(Path("some dir"))
    assert uri.startswith("file:///") or uri.startswith("file://")
    assert uri.endswith("/some%20dir/")


# --- whole reports of a Windows run -------------------------------------------------------------

INSIDE = ROOT / "src" / "bin" / "ü b.rs"
OUTSIDE = PureWindowsPath(r"D:\shared\checkpoint.rs")


def _windows_result() -> Any:
    return result(
        finding(
            path=INSIDE,
            line=3,
            col=5,
            end_col=9,
            snippet="    save(&model).ok();",
            related=(related(OUTSIDE, 7, 1, "the store is built here"),),
        ),
        finding(path=OUTSIDE, line=9, col=1, end_col=5, snippet="save"),
        notifications=(Notification(at(INSIDE), "syntax error near line 2", line=2),),
    )


def _context() -> ReportContext:
    # ReportContext says `Path`; a PureWindowsPath stands in for the WindowsPath of a run on
    # Windows, which cannot be made on other platforms.
    return ReportContext(color=False, project_root=cast(Path, ROOT), tool_version="0.1.0")


def test_text_reports_name_files_with_forward_slashes() -> None:
    out = FORMATS["text"](_windows_result(), _context())
    assert "--> src/bin/ü b.rs:3:5" in out
    assert "D:/shared/checkpoint.rs:7:1" in out
    assert "\\" not in out


def test_concise_report_names_files_with_forward_slashes() -> None:
    out = FORMATS["concise"](_windows_result(), _context())
    assert "src/bin/ü b.rs:3:5:" in out
    assert "D:/shared/checkpoint.rs:9:1:" in out
    assert "\\" not in out


def test_github_annotations_name_the_file_relative_to_the_root() -> None:
    out = FORMATS["github"](_windows_result(), _context())
    assert "file=src/bin/ü b.rs" in out
    assert "\\" not in out


def _locations(log: dict[str, Any]) -> list[dict[str, Any]]:
    run = log["runs"][0]
    found = []
    for item in run["results"]:
        found += [loc["physicalLocation"]["artifactLocation"] for loc in item["locations"]]
        found += [
            loc["physicalLocation"]["artifactLocation"] for loc in item.get("relatedLocations", [])
        ]
    return found


def test_sarif_of_a_windows_run() -> None:
    log = json.loads(FORMATS["sarif"](_windows_result(), _context()))
    run = log["runs"][0]
    assert run["originalUriBaseIds"] == {
        "%SRCROOT%": {"uri": "file:///C:/Users/Zo%C3%AB/My%20Projects/trainer/"}
    }
    locations = _locations(log)
    assert {"uri": "src/bin/%C3%BC%20b.rs", "uriBaseId": "%SRCROOT%"} in locations
    # outside the project root: an absolute URI, without a base
    assert {"uri": "file:///D:/shared/checkpoint.rs"} in locations
    note = run["invocations"][0]["toolExecutionNotifications"][0]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "src/bin/%C3%BC%20b.rs",
        "uriBaseId": "%SRCROOT%",
    }
    assert "\\" not in json.dumps(log["runs"][0]["results"])
