"""Turn the paths given on the command line into the sorted list of Rust files to check.

Rules, in the order they are applied:

- A path given explicitly is always taken: a directory is walked even when it is hidden, named
  ``target`` or ignored; a file is checked when it ends in ``.rs`` (anything else gets a note).
  One that cannot be (missing, unreachable, not a regular file or directory, standard input)
  is an error. With ``force_exclude`` a given path that ``exclude`` or a ``.gitignore``
  matches is skipped silently (pre-commit names every staged file, generated ones included).
- Below a given directory, hidden directories (``.git``, ``.cargo``, ...) and cargo build
  directories are skipped. A build directory is a ``target`` beside a ``Cargo.toml`` or any
  directory holding a valid ``CACHEDIR.TAG`` (cargo writes one into every target dir, custom
  ``CARGO_TARGET_DIR`` included). A ``src/target/`` module directory is *not* skipped: a
  plain name test would silently drop real code.
- ``.gitignore`` files are honoured like git does: the one in each walked directory, those of
  the ancestors up to the enclosing git work tree (and its ``.git/info/exclude``); a deeper
  file overrides a shallower one and an ignored directory is not entered.
- ``exclude`` holds gitignore-style patterns relative to ``exclude_root`` (the config file's
  directory), else to each given directory.
- Symbolic links: a link to a file inside the given directory is checked under the file's real
  path, once. A link to a directory inside it is not entered: its target is walked where it
  really is, so nothing is checked twice and no cycle can form. A link that leaves the given
  directory or loops back onto an ancestor is skipped with a note, one that points nowhere
  with a warning.
- Only regular files are read: a FIFO, a device or a socket named ``*.rs`` is skipped with a
  warning (reading a FIFO would wait for a writer forever), and so are ignore files that are
  not regular files.
- A file in a directory whose path leaves no room to name its ``Cargo.toml`` within
  ``PATH_MAX`` is skipped with a warning: the run looks for its crate's manifest beside it.
- Every ``*.rs`` skipped counts in ``Discovery.skipped`` (the exit code needs it).
- Every file is checked once, whatever path or link leads to it, and the output is sorted by
  POSIX path string.

Nothing here raises on bad input: unreadable directories and ignore files become notifications.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pathspec import GitIgnoreSpec
from pathspec.pattern import RegexPattern
from pathspec.util import normalize_file

from burnlint.findings import Level, Notification, NotificationKind
from burnlint.fsutil import name_too_long, read_regular_file

RUST_SUFFIX = ".rs"

# Standard input (a terminal, a pipe, a file the shell opened): `--stdin-filename` checks it.
_STDIN_PATHS = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})

# https://bford.info/cachedir/: the file must start with this exact signature.
_CACHEDIR_SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"


@dataclass(frozen=True)
class Discovery:
    """The files to check, what the user should know about the walk, and which files were
    named on the command line (pre-commit passes only those: findings are reported for them
    while the rest of their targets is read for facts)."""

    files: tuple[Path, ...]
    notifications: tuple[Notification, ...]
    explicit: frozenset[Path]
    # Rust files the walk found but does not check (a FIFO, a link it does not follow, ...)
    skipped: int = field(default=0, compare=False)
    # Every path whose stat could change the answer: the directories listed or looked into
    # (an entry added, removed or renamed changes a directory's modification time), the
    # ignore files, tags and manifests read, and the given paths' ancestors. None when the
    # walk followed a symbolic link: what a link leads to is not among them.
    consulted: frozenset[str] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class _IgnoreFile:
    """Patterns that apply to paths below ``base`` (a real directory path ending in a separator)."""

    base: str
    spec: GitIgnoreSpec
    # matches every path that one of the patterns matches: most paths match none, and one
    # search costs less than one per pattern (None: not available, ask the spec every time)
    any_pattern: re.Pattern[str] | None = None

    def check(self, rel: str) -> bool | None:
        """The spec's verdict for ``rel``: True ignored, False re-included, None no match."""
        if self.any_pattern is not None and self.any_pattern.search(normalize_file(rel)) is None:
            return None
        return self.spec.check_file(rel).include


@dataclass
class _Walker:
    respect_gitignore: bool
    exclude: GitIgnoreSpec | None
    exclude_root: str | None
    force_exclude: bool = False
    # real path of a file -> the path it is reported under (the first way it was reached)
    files: dict[str, Path] = field(default_factory=dict)
    explicit: set[str] = field(default_factory=set)
    notifications: list[Notification] = field(default_factory=list)
    visited_dirs: set[str] = field(default_factory=set)
    consulted: set[str] = field(default_factory=set)  # besides ``visited_dirs`` (``Discovery``)
    skipped: int = 0  # Rust files found and not checked (``Discovery.skipped``)
    followed_links: bool = False

    def note(self, path: Path | str, message: str, level: Level = Level.NOTE) -> None:
        """A notification about ``path`` (as reached: under the path the user gave)."""
        self.notifications.append(
            Notification(
                path=Path(os.path.abspath(path)),
                message=message,
                kind=NotificationKind.FILE,
                level=level,
            )
        )

    def add_given(self, given: Path) -> None:
        absolute = os.path.abspath(given)
        if os.path.realpath(given) != absolute:
            self.followed_links = True  # a link on the way
        self.consulted.add(absolute)
        if given.as_posix() in _STDIN_PATHS:
            self.refuse(given, "is standard input; to check it, use --stdin-filename PATH")
            return
        try:
            st = given.stat()
        except FileNotFoundError:
            self.refuse(given, "path does not exist")
            return
        except OSError as exc:
            # ELOOP, EACCES on a parent, ENAMETOOLONG...: the user named something unusable.
            self.refuse(given, f"cannot access path: {_reason(exc)}")
            return
        if self.force_exclude and self.excluded_as_given(given, stat.S_ISDIR(st.st_mode)):
            return
        if stat.S_ISDIR(st.st_mode):
            self.walk(given, os.path.realpath(given))
        elif stat.S_ISREG(st.st_mode):
            if given.name.endswith(RUST_SUFFIX):
                real = os.path.realpath(given)
                if self.too_long(given, os.path.dirname(real), Level.ERROR):
                    return
                self.files.setdefault(real, given)
                self.explicit.add(real)
            else:
                self.note(given, "not a Rust source file (`.rs`), skipped")
        else:  # a FIFO would block the read; a device can be endless
            self.refuse(given, "not a regular file or directory (a FIFO, a device, a socket)")

    def refuse(self, given: Path, message: str) -> None:
        """A path named on the command line that cannot be checked: an error (exit 2)."""
        path = Path(os.path.abspath(given))
        self.notifications.append(Notification(path, message, NotificationKind.CONFIG, Level.ERROR))

    def skip(self, shown: Path, message: str, level: Level = Level.WARNING) -> None:
        """A Rust file not checked: a warning when it cannot be, a note when left out by choice."""
        self.note(shown, message, level)
        self.skipped += 1

    def too_long(self, shown: Path, directory: str, level: Level = Level.WARNING) -> bool:
        """Whether the file ``shown`` is skipped: the crate and version lookups name the
        ``Cargo.toml`` (and ``Cargo.lock``) in its ``directory``."""
        reason = name_too_long(directory, "Cargo.toml")
        if reason is not None:
            self.skip(shown, f"path too long to look for its Cargo.toml ({reason}), skipped", level)
        return reason is not None

    def excluded_as_given(self, given: Path, is_dir: bool) -> bool:
        """Whether ``exclude`` or a ``.gitignore`` matches a path named on the command line, or
        one of its directories (as if the walk had reached it)."""
        real = os.path.realpath(given)
        parent = os.path.dirname(real)
        base_dir = os.path.realpath(self.exclude_root or os.getcwd())
        base = _as_dir_prefix(base_dir)
        ignores: tuple[_IgnoreFile, ...] = ()
        if self.respect_gitignore:
            # The ignore files a walk would have applied: in a git work tree those from its
            # top down; outside one, those from the base (the configuration's directory, else
            # the current one) down to the file's directory.
            ignores = self.ancestor_ignores(parent)
            directories = [parent]
            if not _in_work_tree(parent) and parent.startswith(base):
                current = parent
                while current != base_dir and current.startswith(base):
                    current = os.path.dirname(current)
                    directories.append(current)
            self.consulted.update(directories)
            for directory in reversed(directories):
                own = os.path.join(directory, ".gitignore")
                if os.path.isfile(own):
                    spec = self.read_ignore_file(own, own)
                    if spec is not None:
                        ignores = (*ignores, spec)
        candidates = [(real, is_dir)]
        current = parent
        while current != os.path.dirname(current):
            candidates.append((current, True))
            current = os.path.dirname(current)
        return any(self.is_ignored(path, d, ignores, base) for path, d in candidates)

    def walk(self, display_root: Path, real_root: str) -> None:
        if real_root in self.visited_dirs:
            return
        root_prefix = _as_dir_prefix(real_root)
        exclude_base = _as_dir_prefix(self.exclude_root) if self.exclude_root else root_prefix
        inherited = self.ancestor_ignores(real_root) if self.respect_gitignore else ()
        # Iterative on purpose: a deep tree must not hit the recursion limit.
        stack: list[tuple[str, tuple[_IgnoreFile, ...]]] = [(real_root, inherited)]
        while stack:
            real_dir, ignores = stack.pop()
            if real_dir in self.visited_dirs:
                continue
            self.visited_dirs.add(real_dir)
            try:
                with os.scandir(real_dir) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                shown = _display(display_root, root_prefix, real_dir)  # a named one: an error
                level = Level.ERROR if real_dir == real_root else Level.WARNING
                self.note(shown, f"cannot read directory: {_reason(exc)}", level)
                continue
            names = {e.name for e in entries}
            if "CACHEDIR.TAG" in names:
                self.consulted.add(os.path.join(real_dir, "CACHEDIR.TAG"))
            if "Cargo.toml" in names:
                # a manifest's content, and whether its crate has a `src/lib.rs`
                self.consulted.add(os.path.join(real_dir, "Cargo.toml"))
                self.consulted.add(os.path.join(real_dir, "src"))
            if real_dir != real_root and _is_cache_dir(real_dir, names):
                continue
            if self.respect_gitignore and ".gitignore" in names:
                shown = _display(display_root, root_prefix, real_dir) / ".gitignore"
                own = self.read_ignore_file(os.path.join(real_dir, ".gitignore"), shown)
                if own is not None:
                    ignores = (*ignores, own)
            has_manifest = "Cargo.toml" in names
            subdirs: list[str] = []
            for entry in entries:
                path = entry.path
                try:
                    is_link = entry.is_symlink()
                    is_dir = not is_link and entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if is_dir and (
                    entry.name.startswith(".") or (entry.name == "target" and has_manifest)
                ):
                    continue
                if not is_dir and not is_link and not entry.name.endswith(RUST_SUFFIX):
                    continue
                if self.is_ignored(path, is_dir, ignores, exclude_base):
                    continue
                if is_dir:
                    subdirs.append(path)
                elif is_link:
                    self.follow_link(entry, real_dir, root_prefix, display_root)
                elif _is_regular(entry):
                    shown = _display(display_root, root_prefix, path)
                    if not self.too_long(shown, real_dir):
                        self.files.setdefault(path, shown)
                else:
                    # a FIFO named `x.rs` would block the read forever
                    shown = _display(display_root, root_prefix, path)
                    self.skip(shown, "not a regular file, skipped")
            # Reversed so that the stack pops them in name order (a deterministic walk).
            stack.extend((d, ignores) for d in reversed(subdirs))

    def follow_link(
        self, entry: os.DirEntry[str], real_dir: str, root_prefix: str, display_root: Path
    ) -> None:
        self.followed_links = True
        shown = _display(display_root, root_prefix, entry.path)
        try:
            st = os.stat(entry.path)
        except OSError:
            if entry.name.endswith(RUST_SUFFIX):
                self.skip(shown, "broken or looping symbolic link, skipped")
            return
        target = os.path.realpath(entry.path)
        if stat.S_ISDIR(st.st_mode):
            if real_dir == target or real_dir.startswith(_as_dir_prefix(target)):
                self.note(shown, "symbolic link to one of its own parent directories, skipped")
            elif not target.startswith(root_prefix):
                self.note(shown, "symbolic link leads outside the checked directory, skipped")
            # Otherwise the target is inside the root and gets walked where it really is.
            return
        if not entry.name.endswith(RUST_SUFFIX):
            return
        if not stat.S_ISREG(st.st_mode):
            self.skip(shown, "symbolic link to something that is not a regular file, skipped")
            return
        if not target.startswith(root_prefix):  # by choice: a note
            self.skip(
                shown, "symbolic link leads outside the checked directory, skipped", Level.NOTE
            )
            return
        if target.endswith(RUST_SUFFIX):
            shown = _display(display_root, root_prefix, target)
            if not self.too_long(shown, os.path.dirname(target)):
                self.files.setdefault(target, shown)

    def is_ignored(
        self, path: str, is_dir: bool, ignores: Sequence[_IgnoreFile], exclude_base: str
    ) -> bool:
        if self.exclude is not None and path.startswith(exclude_base):
            rel = _rel_for_spec(path, exclude_base, is_dir)
            if self.exclude.match_file(rel):
                return True
        verdict = False
        # Last match wins, and deeper files come later: a nested `!pattern` re-includes.
        for ignore in ignores:
            if path.startswith(ignore.base):
                include = ignore.check(_rel_for_spec(path, ignore.base, is_dir))
                if include is not None:
                    verdict = include
        return verdict

    def ancestor_ignores(self, real_root: str) -> tuple[_IgnoreFile, ...]:
        """The ignore files above ``real_root`` that git applies to it: ``.git/info/exclude``
        and the ``.gitignore`` of every directory from the work tree's top down to the root's
        parent. Outside a git work tree there are none (the root's own is read by the walk)."""
        above: list[str] = []  # the root's ancestors, nearest first, up to the work tree top
        current = real_root
        # each directory up to the work tree's top is looked into (for `.git`, `.gitignore`)
        self.consulted.add(current)
        while not os.path.lexists(os.path.join(current, ".git")):
            parent = os.path.dirname(current)
            self.consulted.add(parent)
            if parent == current:
                return ()
            current = parent
            above.append(current)
        top = current
        found: list[_IgnoreFile] = []
        info_exclude = os.path.join(top, ".git", "info", "exclude")
        self.consulted.update((os.path.join(top, ".git"), os.path.dirname(info_exclude)))
        if os.path.isfile(info_exclude):
            spec = self.read_ignore_file(info_exclude, info_exclude, base=top)
            if spec is not None:
                found.append(spec)
        for directory in reversed(above):  # top-down, as git applies them
            candidate = os.path.join(directory, ".gitignore")
            if os.path.isfile(candidate):
                spec = self.read_ignore_file(candidate, candidate)
                if spec is not None:
                    found.append(spec)
        return tuple(found)

    def read_ignore_file(
        self, path: str, shown: Path | str, base: str | None = None
    ) -> _IgnoreFile | None:
        self.consulted.add(path)
        try:
            lines = read_regular_file(path).decode("utf-8", errors="replace").splitlines()
            spec = _compiled(tuple(lines))
        except (OSError, ValueError) as exc:
            reason = _reason(exc) if isinstance(exc, OSError) else str(exc)
            self.note(shown, f"cannot read ignore file: {reason}", Level.WARNING)
            return None
        return _IgnoreFile(_as_dir_prefix(base or os.path.dirname(path)), spec, _any_pattern(spec))


def discover(
    paths: Sequence[Path],
    *,
    respect_gitignore: bool = True,
    exclude: Sequence[str] = (),
    exclude_root: Path | None = None,
    force_exclude: bool = False,
) -> Discovery:
    """Find the Rust files under ``paths`` (see the module docstring for the rules)."""
    exclude_spec: GitIgnoreSpec | None = None
    notes: list[Notification] = []
    if exclude:
        try:
            exclude_spec = GitIgnoreSpec.from_lines(list(exclude))
        except ValueError as exc:  # pathspec rejects a few malformed patterns
            notes.append(
                Notification(
                    path=None,
                    message=f"invalid exclude pattern: {exc}",
                    kind=NotificationKind.CONFIG,
                    level=Level.ERROR,
                )
            )
    walker = _Walker(
        respect_gitignore=respect_gitignore,
        exclude=exclude_spec,
        exclude_root=os.path.realpath(exclude_root) if exclude_root is not None else None,
        force_exclude=force_exclude,
        notifications=notes,
    )
    for given in paths:
        walker.add_given(Path(given))
    files = sorted(walker.files.values(), key=Path.as_posix)
    explicit = frozenset(walker.files[real] for real in walker.explicit)
    notifications = tuple(sorted(dict.fromkeys(walker.notifications), key=Notification.sort_key))
    consulted = None
    if not walker.followed_links:
        consulted = frozenset(walker.consulted | walker.visited_dirs)
    return Discovery(
        files=tuple(files),
        notifications=notifications,
        explicit=explicit,
        skipped=walker.skipped,
        consulted=consulted,
    )


@lru_cache(maxsize=256)
def _compiled(lines: tuple[str, ...]) -> GitIgnoreSpec:
    """An ignore file's patterns compiled: a long-lived process (the language server) reads
    the same ignore files at every check."""
    return GitIgnoreSpec.from_lines(lines)


def _in_work_tree(directory: str) -> bool:
    current = directory
    while not os.path.lexists(os.path.join(current, ".git")):
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent
    return True


_NAMED_GROUP = re.compile(r"\(\?P<[^>]+>")


def _any_pattern(spec: GitIgnoreSpec) -> re.Pattern[str] | None:
    """One regex found in a path whenever one of ``spec``'s patterns is (each pattern is a
    regex searched in the path): their alternation. None when the patterns are not of that
    kind."""
    parts: list[str] = []
    flags: set[int] = set()
    for pattern in spec.patterns:
        if pattern.include is None:
            continue  # blank lines and comments match nothing
        regex = getattr(pattern, "regex", None)
        if (
            type(pattern).match_file is not RegexPattern.match_file
            or not isinstance(regex, re.Pattern)
            or not isinstance(regex.pattern, str)
        ):
            return None
        parts.append(f"(?:{_NAMED_GROUP.sub('(?:', regex.pattern)})")  # names may repeat
        flags.add(regex.flags)
    if len(flags) > 1:
        return None
    try:
        return re.compile("|".join(parts) or "(?!)", flags.pop() if flags else 0)
    except re.error:
        return None


def _as_dir_prefix(path: str) -> str:
    return path if path.endswith(os.sep) else path + os.sep


def _rel_for_spec(path: str, base: str, is_dir: bool) -> str:
    rel = path[len(base) :]
    if os.sep != "/":
        rel = rel.replace(os.sep, "/")
    # A trailing slash lets `build/`-style patterns match directories only, as in git.
    return rel + "/" if is_dir else rel


def _display(display_root: Path, root_prefix: str, real_path: str) -> Path:
    """``real_path`` (inside the walked root) as a path under the root the user typed."""
    if not real_path.startswith(root_prefix):
        return display_root
    return display_root.joinpath(*real_path[len(root_prefix) :].split(os.sep))


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _is_cache_dir(directory: str, names: set[str]) -> bool:
    if "CACHEDIR.TAG" not in names:
        return False
    try:
        path = os.path.join(directory, "CACHEDIR.TAG")
        return read_regular_file(path, len(_CACHEDIR_SIGNATURE)) == _CACHEDIR_SIGNATURE
    except OSError:
        return False


def _reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__
