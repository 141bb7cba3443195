"""The prefilter: which files can hold a store operation (or a regex burn-store compiles), by
plain byte search."""

from __future__ import annotations

from collections import Counter

from burnlint.model.burn_api import BurnStoreApi

# The shortest first-pass word: shorter ones match far more files (`ore` is in `more`, `core`
# and `before`), and the first pass would let them through.
_SHORTEST_BROAD_WORD = 4


def trigger_words(api: BurnStoreApi) -> tuple[bytes, ...]:
    """The words one of which every file that can hold a store operation contains (DESIGN.md
    §1), from burn-store's names in ``api``: each operation's name and each store type's. An
    operation too common a name to search for (`apply`) counts only with its trait in scope,
    so the trait's name stands for it, and the crate's paths (a glob import of the crate
    brings the trait). A word that contains another is left out: the shorter one already finds
    it (`load_file` finds `try_load_file`). The path filter's and the key remapper's names
    stand for the regexes they compile (BL010), which need no store in the file."""
    words: list[str] = [name for name in api.ops if name not in api.ops_found_by_trait]
    words += api.store_names
    words += (api.filter_type, api.remapper_type)
    for name in api.ops_found_by_trait:
        for spec in api.ops.get(name, ()):
            if spec.trait is not None:
                words += (spec.trait, *api.crate_paths)
    unique = list(dict.fromkeys(words))
    kept = [w for w in unique if not any(o != w and o in w for o in unique)]
    return tuple(word.encode() for word in kept)


def broad_words(
    words: tuple[bytes, ...], shortest: int = _SHORTEST_BROAD_WORD
) -> tuple[bytes, ...]:
    """Fewer, shorter words for a first pass, such that each of ``words`` contains one: the
    substring (of ``shortest`` bytes or more) shared by most of the words not yet covered, the
    longest such, until every word is covered. Nearly every file has none of them, and each
    `in` is a scan of the whole file."""
    left = list(words)
    chosen: list[bytes] = []
    while left:
        shared = Counter(part for word in left for part in _parts(word, shortest))
        best = min(shared, key=lambda part: (-shared[part], -len(part), part))
        chosen.append(best)
        left = [word for word in left if best not in word]
    return tuple(chosen)


def _parts(word: bytes, shortest: int) -> set[bytes]:
    """The substrings of ``word`` of ``shortest`` bytes or more, and the word itself."""
    return {word} | {
        word[start:end]
        for start in range(len(word))
        for end in range(start + shortest, len(word) + 1)
    }


# A file that mentions none of these cannot hold a store operation in any burn release. Plain
# `bytes in` checks: a regex over every file costs 2.5x more.
TRIGGER_WORDS: tuple[bytes, ...] = trigger_words(BurnStoreApi.for_version(None))
_BROAD_WORDS: tuple[bytes, ...] = broad_words(TRIGGER_WORDS)


def has_trigger(data: bytes) -> bool:
    if not any(word in data for word in _BROAD_WORDS):
        return False
    return any(word in data for word in TRIGGER_WORDS)
