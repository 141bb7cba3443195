#!/usr/bin/env python3
"""Latency of ``burnlint server`` against a one-shot ``burnlint --stdin-filename`` run.

    python tests/benchmarks/bench_lsp.py BURN_TREE [--edits N] [--burnlint PATH]

Opens the largest file of the tree's ``crates/burn-store`` in which burnlint finds a store
operation (its name is printed) in a language server started with ``burnlint server``, then
applies ``--edits`` edits (default 10: each a statement typed in the function that holds the
file's first store operation), each a new document version, and measures the time from each
``didChange`` to the ``publishDiagnostics`` for that version (the server publishes every
version it checks, even with no findings). After each edit the same buffer is checked by a
one-shot ``burnlint --stdin-filename FILE`` with default settings, so that load on the machine
hits both alike, ``SETTLE`` seconds after the publish (what the server does once it has
published must not overlap the run it is compared with). Both use the persistent cache as a
user has it (warm after the first check), kept out of the tree in a temporary directory
(``BURNLINT_CACHE_DIR``). Prints the medians,
their ratio (target: <= 0.2) and whether the server's diagnostics and the one-shot's findings
agree in number for each buffer.

A script, not a test: timings depend on the machine and on what else runs on it. burnlint must
be importable (to find the file) with its ``lsp`` extra, and its console script installed
(``--burnlint``, default: next to this Python, else on PATH).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

TARGET_RATIO = 0.2
TIMEOUT = 300.0
SETTLE = 0.25  # seconds between a publish and the one-shot run


def largest_with_a_store_op(crate: Path) -> tuple[Path, int, int]:
    """The largest ``.rs`` file under ``crate`` whose own syntax holds a store operation (as
    burnlint's file model finds them), how many it holds, and the line after the opening brace
    of the function that holds the first one (where the edits are typed)."""
    from burnlint.model.file_model import FileModel
    from burnlint.model.summaries import enclosing_function
    from burnlint.rust.source import SourceFile
    from burnlint.rust.syntax import parse

    files = sorted(crate.rglob("*.rs"), key=lambda p: (-p.stat().st_size, p.as_posix()))
    for path in files:
        data = path.read_bytes()
        model = FileModel(SourceFile(path, data, parse(data)))
        for op in model.ops:
            function = enclosing_function(op.node, model.ancestry)
            body = function.child_by_field_name("body") if function is not None else None
            if body is not None:
                return path, len(model.ops), body.start_point[0] + 1
    raise SystemExit(f"no file under {crate} holds a store operation in a function")


class Server:
    """A language server process spoken to with JSON-RPC over its stdin and stdout."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[bytes] = self.process.stdin
        self.stdout: IO[bytes] = self.process.stdout
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
        self.stdin.flush()

    def request(self, method: str, params: object) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                if "error" in message:
                    raise SystemExit(f"{method}: {message['error']}")
                return message.get("result")

    def notify(self, method: str, params: object) -> None:
        self.send({"method": method, "params": params})

    def receive(self) -> dict[str, Any]:
        length = 0
        while True:
            line = self.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        message: dict[str, Any] = json.loads(self.stdout.read(length))
        if "id" in message and "method" in message:  # a request of the server's: answer it
            self.send({"id": message["id"], "result": None})
        return message

    def diagnostics_for(self, uri: str, version: int) -> list[Any]:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            message = self.receive()
            if message.get("method") != "textDocument/publishDiagnostics":
                continue
            params = message["params"]
            if params["uri"] == uri and params.get("version") == version:
                return list(params["diagnostics"])
        raise SystemExit(f"no diagnostics for version {version}")

    def close(self) -> None:
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=30)


def one_shot(
    burnlint: str, tree: Path, path: Path, text: str, env: dict[str, str]
) -> tuple[float, int]:
    """Seconds for ``burnlint --stdin-filename`` on ``text``, and how many findings it made."""
    start = time.perf_counter()
    run = subprocess.run(
        [burnlint, "--format", "concise", "--quiet", "--stdin-filename", str(path)],
        cwd=tree,
        env=env,
        input=text.encode("utf-8"),
        capture_output=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if run.returncode not in (0, 1):
        raise SystemExit(f"burnlint failed ({run.returncode}): {run.stderr.decode()}")
    return elapsed, len(run.stdout.decode().splitlines())


def _burnlint_script(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).parent / "burnlint"
    found = str(beside) if beside.exists() else shutil.which("burnlint")
    if found is None:
        raise SystemExit("no burnlint console script: give --burnlint")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path, help="a checkout of tracel-ai/burn")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--burnlint", help="the console script to run")
    args = parser.parse_args()
    tree = args.tree.resolve()
    burnlint = _burnlint_script(args.burnlint)
    path, ops, typed_at = largest_with_a_store_op(tree / "crates" / "burn-store")
    text = path.read_text(encoding="utf-8")
    print(f"file: {path.relative_to(tree)} ({path.stat().st_size:,} bytes, {ops} store ops)")
    print(f"edits: a statement typed at line {typed_at + 1}, in the function of the first op")

    # both keep their persistent cache, as a user has it, out of the tree: in one directory
    # of their own, so that each finds what the other wrote
    cache = tempfile.TemporaryDirectory(prefix="bench-lsp-cache-")
    env = {**os.environ, "BURNLINT_CACHE_DIR": cache.name}
    server = Server([burnlint, "server"], tree, env)
    server.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": tree.as_uri(),
            "workspaceFolders": [{"uri": tree.as_uri(), "name": tree.name}],
            "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
        },
    )
    server.notify("initialized", {})
    uri = path.as_uri()
    start = time.perf_counter()
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "rust", "version": 1, "text": text}},
    )
    first = server.diagnostics_for(uri, 1)
    print(f"open -> first diagnostics: {time.perf_counter() - start:.3f} s ({len(first)} found)")

    latencies: list[float] = []
    one_shots: list[float] = []
    agree = True
    for version in range(2, args.edits + 2):
        # an edit a person makes: a statement typed in the function that holds a store
        # operation (every finding after it moves down a line; none comes or goes)
        added = f"    let _edit_{version} = {version};\n"
        at = {"line": typed_at, "character": 0}
        start = time.perf_counter()
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": at, "end": at}, "text": added}],
            },
        )
        found = server.diagnostics_for(uri, version)
        latencies.append(time.perf_counter() - start)
        lines = text.split("\n")
        text = "\n".join([*lines[:typed_at], added.rstrip("\n"), *lines[typed_at:]])
        # what the server does once it has published (its cache writes, a collection) is
        # over before the one-shot run starts: the two never share the machine
        time.sleep(SETTLE)
        seconds, findings = one_shot(burnlint, tree, path, text, env)
        one_shots.append(seconds)
        agree = agree and findings == len(found)
        print(
            f"version {version}: server {latencies[-1] * 1000:7.1f} ms ({len(found)} found), "
            f"one-shot {seconds * 1000:7.1f} ms ({findings} found)"
        )
    server.close()
    cache.cleanup()

    server_median = statistics.median(latencies)
    one_shot_median = statistics.median(one_shots)
    ratio = server_median / one_shot_median
    print(f"median didChange -> publishDiagnostics: {server_median * 1000:.1f} ms")
    print(f"median one-shot --stdin-filename:      {one_shot_median * 1000:.1f} ms")
    verdict = "met" if ratio <= TARGET_RATIO else "not met"
    print(f"ratio server / one-shot: {ratio:.2f} (target <= {TARGET_RATIO}: {verdict})")
    print(f"same number of findings in every version: {'yes' if agree else 'NO'}")


if __name__ == "__main__":
    main()
