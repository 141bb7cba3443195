"""What the engine adds to a file's findings once they are final: the line/column span of
each fix's edits, the fingerprints, and the digest of the bytes that were checked."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from burnlint.findings import Finding
from burnlint.rust.source import SourceFile


def digest(data: bytes) -> str:
    """The sha256 of ``data``: what --fix and --add-allow compare before writing a file, so a
    file changed since it was checked is left alone."""
    return hashlib.sha256(data).hexdigest()


def touched_files(findings: Sequence[Finding]) -> set[Path]:
    """The files ``findings`` are in, and the files their fixes edit (a fix may add
    `.overwrite(true)` in a helper's file): those --fix and --add-allow need digests of."""
    return {f.location.path for f in findings} | {
        e.path for f in findings if f.fix is not None for e in f.fix.edits
    }


def locate_edits(finding: Finding, source: SourceFile) -> Finding:
    """Give the fix's edits in this file their line/column span."""
    fix = finding.fix
    if fix is None:
        return finding
    edits = tuple(
        replace(e, span=source.span(e.start_byte, e.end_byte)) if e.path == source.path else e
        for e in fix.edits
    )
    return replace(finding, fix=replace(fix, edits=edits))


def with_fingerprints(findings: list[Finding]) -> list[Finding]:
    """Complete each finding's fingerprint (the findings of one or more whole files): rule,
    enclosing item, normalised expression, and an ordinal among identical triples in the
    file, hashed. Line numbers are not part of it,
    so inserting unrelated lines above a finding keeps its fingerprint."""
    seen: dict[tuple[Path, str, str], int] = defaultdict(int)
    first: dict[tuple[Path, str, str], str] = {}
    out: list[Finding] = []
    for finding in sorted(findings, key=Finding.sort_key):
        key = (finding.location.path, finding.rule_id, finding.fingerprint)
        ordinal = seen[key]
        seen[key] += 1
        material = "\x1e".join((finding.rule_id, finding.fingerprint, str(ordinal)))
        hashed = hashlib.sha256(material.encode()).hexdigest()[:32]
        # identical findings share the first one's hash (``Finding.twins``): the ordinal
        # alone cannot say which of them a baseline accepted once one is added above another
        twins = first.setdefault(key, hashed)
        out.append(replace(finding, fingerprint=hashed, twins=twins))
    return out
