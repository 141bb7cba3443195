"""Words shared by the rules' violations: what an op is, what happens when it fails, what the
overwrite fix does, and the layout facts behind the key-mapping options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.model.burn_layers import PARAMETRIC_LAYERS
from burnlint.model.keymapping import Matter

if TYPE_CHECKING:
    from burnlint.model.keymapping import LayoutReason
    from burnlint.model.ops import StoreOp

# What the overwrite fix does, as a help says it ("add `.overwrite(true)` to the store").
OVERWRITE = "add `.overwrite(true)`"


def overwrite_fix_title(helper: str | None) -> str:
    """The title of the fix that adds `.overwrite(true)` (``fixes.add_overwrite``): to the
    store built here, or in the crate-local function ``helper`` that builds it."""
    if helper is None:
        return OVERWRITE
    return f"{OVERWRITE} to the store `{helper}` builds (changes it for all its callers)"


def op_name(op: StoreOp) -> str:
    """The op as called, and for a crate-local helper the burn methods it calls."""
    if op.summary is None:
        return f"`{op.method}`"
    inner = " and ".join(f"`{name}`" for name in op.summary.errors)
    if not inner:
        return f"`{op.summary.name}` (which {'saves' if op.is_save else 'loads'} through burn)"
    return f"`{op.summary.name}` (which calls {inner})"


def failure_effect(op: StoreOp, refuses: bool) -> str:
    """What goes wrong at run time when this op fails and nobody notices; ``refuses``: the
    op's store refuses to overwrite an existing file (``model.repeats.refuses_overwrite``)."""
    if op.is_save:
        if op.is_record:
            # burn-core writes the record in place: `File::create` truncates first
            # (burn-pack `writer.rs` `write_to_file`; 0.21's recorders alike)
            return (
                "a failed save goes unnoticed, and one that fails partway leaves the file truncated"
            )
        if refuses:
            # with the store's real default, failing is the normal case once the file exists
            return "once the file exists every save fails with `File already exists`, unnoticed"
        return "a failed save goes unnoticed and the file on disk keeps its old contents"
    if op.is_record:
        # the load consumes the module and hands nothing back on error
        return "a failed load goes unnoticed; the program goes on with what it falls back to"
    return "a failed load goes unnoticed: the model runs with a mix of loaded and initial weights"


def layout_fact(reason: LayoutReason) -> str:
    """The layout fact behind a key-mapping option, as a noun phrase: "the mirror `net:
    Vec<Layer>`", "`net: Vec<Linear>`", "the module enum `Block` in `head: Block`"."""
    shown = f"`{reason.field.shown}`"
    if reason.matter is Matter.MIRROR:
        return f"the mirror {shown}"
    if reason.matter is Matter.ENUM and reason.enum is not None:
        return f"the module enum `{reason.enum.name}` in {shown}"
    return shown


def key_example(reason: LayoutReason) -> str:
    """What the wrong value of ``reason.option`` does to one key of the field, as a caret
    label says it: "renumbers the file's `net.2` to `net.1`"."""
    name = reason.field.name
    if reason.option == "skip_enum_variants":
        index = ".0" if reason.field.element is not None else ""
        wanted = f"{_example_path(reason)[:-1]}weight"
        return f"burn wants `{wanted}`, the file has `{name}{index}.weight`"
    if reason.matter is Matter.MIRROR:
        return f"the file's `{name}.2` becomes `{name}.1`"
    return f"burn wants `{name}.1`, the file has `{name}.2`"


def layout_consequence(reason: LayoutReason, value: bool, written: bool) -> str:
    """What ``value`` of ``reason.option`` (``written`` in the code, else the default) does to
    the keys of the field (BL012's help)."""
    name = reason.field.name
    setting = f"`{reason.option}({'true' if value else 'false'})`"
    setting = setting if written else f"the default {setting}"
    if reason.matter is Matter.MIRROR and reason.option == "map_indices_contiguous":
        return (
            f"{_gap(reason)} holds no parameters, so PyTorch's keys keep a gap at its index in "
            f"`{name}`, as the `Vec` does; {setting} closes the gap, and the "
            "tensors after it are not found or load into another layer of the same shape"
        )
    if reason.matter is Matter.SEQUENTIAL:
        return (
            f"a PyTorch `nn.Sequential` numbers its parameter-free layers too (`{name}.0`, "
            f"`{name}.2`), the `Vec` only its `{reason.field.element}` layers (`{name}.0`, "
            f"`{name}.1`); {setting} keeps the gap, so `{name}.1` is not found"
        )
    return (
        f"burn's keys under `{name}` name the variant (`{_example_path(reason)}`), PyTorch's "
        f"never do; {setting} keeps the names, so those tensors are not found"
    )


def layout_stakes(reason: LayoutReason) -> str:
    """Why a difference in ``reason.option`` between two loaders matters (for BL006)."""
    shown = f"`{reason.field.shown}`"
    if reason.matter is Matter.MIRROR:
        return (
            f"{shown} mirrors a PyTorch Sequential ({_gap(reason)} leaves a gap): renumbering "
            "decides whether the keys after the gap are found"
        )
    if reason.matter is Matter.SEQUENTIAL:
        return (
            f"{shown} has no gaps where a PyTorch Sequential has them: renumbering decides "
            f"whether `{reason.field.name}.1` is found"
        )
    name = f"`{reason.enum.name}`" if reason.enum is not None else "a module enum"
    return (
        f"{shown} holds {name}: skipping variant names decides whether "
        f"`{_example_path(reason)}` finds its PyTorch key"
    )


def _gap(reason: LayoutReason) -> str:
    gap = reason.gap.name if reason.gap is not None else "a parameter-free variant"
    return f"`{reason.enum.name}::{gap}`" if reason.enum is not None else f"`{gap}`"


def _example_path(reason: LayoutReason) -> str:
    index = ".0" if reason.field.element is not None else ""
    return f"{reason.field.name}{index}.{_parametric_variant(reason)}.…"


def _parametric_variant(reason: LayoutReason) -> str:
    if reason.enum is None or not reason.enum.variants:
        return "Variant"
    variants = reason.enum.variants
    layers = [v for v in variants if v.payload and PARAMETRIC_LAYERS.intersection(v.payload)]
    others = [v for v in variants if v.payload and v != reason.gap]
    return (layers or others or list(variants))[0].name
