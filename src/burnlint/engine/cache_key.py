"""The key that signs cache entries: only what this user wrote on this machine is read back.

A cache directory sits in the project, where anyone who can push can put one (a
``.burnlint_cache`` added with ``git add -f``, restored from a CI cache): a planted entry
whose findings were emptied would turn the findings off. Every entry is therefore written
with an HMAC under a key kept outside the project, in the user's cache directory
(``BURNLINT_KEY_DIR``, else ``$XDG_CACHE_HOME/burnlint``, else ``~/.cache/burnlint``), and an
entry whose HMAC does not verify is a miss: recomputed and written again.

The key is made on first use: 32 random bytes, mode 0600, written to a temporary file and
linked into place, so a run starting meanwhile sees the whole key or none, and of two runs
creating it at once one wins and the other reads its key. A key file that another user could
have written or can read (a symbolic link, not a regular file, another owner, any permission
for the group or others) is refused: the run says why and goes on without the cache.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import tempfile
from pathlib import Path

KEY_ENV = "BURNLINT_KEY_DIR"
KEY_NAME = "key"
KEY_BYTES = 32
# what starts a signed entry, then its HMAC (SHA-256), then the pickle
MAGIC = b"BLH1"
_MAC_BYTES = hashlib.sha256().digest_size


class CacheKeyError(Exception):
    """The key cannot be used (its message is one line for stderr)."""


def key_dir() -> Path:
    """Where the key is kept (module docstring)."""
    configured = os.environ.get(KEY_ENV)
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG spec: a relative value is ignored
        return Path(xdg) / "burnlint"
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA")
        if local:
            return Path(local) / "burnlint"
    return Path.home() / ".cache" / "burnlint"


# the key per file, read once per process (the language server checks again and again)
_KEYS: dict[Path, bytes] = {}


def load_key() -> bytes:
    """This user's key, made when there is none yet. Raises ``CacheKeyError``."""
    path = key_dir() / KEY_NAME
    found = _KEYS.get(path)
    if found is None:
        try:
            found = _read(path)
        except FileNotFoundError:
            found = _create(path)
        except OSError as exc:
            raise CacheKeyError(
                f"not using the cache: cannot read its key {path}: {exc.strerror or exc}"
            ) from None
        _KEYS[path] = found
    return found


def _read(path: Path) -> bytes:
    """The key in ``path``, when only this user could have written it and can read it.
    Raises ``FileNotFoundError`` (no key yet), ``CacheKeyError`` or ``OSError``."""
    found = os.lstat(path)
    if stat.S_ISLNK(found.st_mode):
        raise CacheKeyError(f"not using the cache: its key {path} is a symbolic link")
    if not stat.S_ISREG(found.st_mode):
        raise CacheKeyError(f"not using the cache: its key {path} is not a regular file")
    # checked again on the open file: the path may have been replaced since the lstat
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as fh:
        _check_owner_and_mode(path, os.fstat(fd))
        data = fh.read(KEY_BYTES + 1)
    if len(data) != KEY_BYTES:
        raise CacheKeyError(f"not using the cache: its key {path} is not {KEY_BYTES} bytes long")
    return data


def _check_owner_and_mode(path: Path, found: os.stat_result) -> None:
    if not stat.S_ISREG(found.st_mode):
        raise CacheKeyError(f"not using the cache: its key {path} is not a regular file")
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: no owner and mode bits to compare
        return
    if found.st_uid != getuid():
        raise CacheKeyError(f"not using the cache: its key {path} is owned by another user")
    if found.st_mode & 0o077:
        mode = stat.S_IMODE(found.st_mode)
        raise CacheKeyError(
            f"not using the cache: its key {path} has mode {mode:04o}, "
            "open to other users (it must be 0600)"
        )


def _create(path: Path) -> bytes:
    """A new key in ``path``: written whole, then linked into place (module docstring)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-key-")  # mode 0600
        try:
            with os.fdopen(handle, "wb") as fh:
                fh.write(os.urandom(KEY_BYTES))  # what `secrets` reads, without its imports
                fh.flush()
                os.fsync(fh.fileno())
            try:
                os.link(temporary, path)  # never replaces a key another run made meanwhile
            except FileExistsError:
                pass
            except OSError:
                # a file system without hard links: a rename is as whole, and the key it
                # might replace was made a moment ago (its entries are recomputed)
                if not os.path.lexists(path):
                    os.replace(temporary, path)
        finally:
            Path(temporary).unlink(missing_ok=True)
        return _read(path)
    except OSError as exc:
        raise CacheKeyError(
            f"not using the cache: cannot create its key {path}: {exc.strerror or exc}"
        ) from None


def seal(key: bytes, name: str, data: bytes) -> bytes:
    """``data`` with its HMAC, for the entry ``name`` (its path in the cache): an entry is
    valid in its own place only."""
    return MAGIC + _mac(key, name, data) + data


def unseal(key: bytes, name: str, sealed: bytes) -> bytes | None:
    """The data of a sealed entry, or None when its HMAC does not verify."""
    start = len(MAGIC) + _MAC_BYTES
    if len(sealed) < start or not sealed.startswith(MAGIC):
        return None
    data = sealed[start:]
    return data if hmac.compare_digest(sealed[len(MAGIC) : start], _mac(key, name, data)) else None


def _mac(key: bytes, name: str, data: bytes) -> bytes:
    mac = hmac.new(key, name.encode("utf-8", "surrogateescape") + b"\0", hashlib.sha256)
    mac.update(data)
    return mac.digest()
