"""The rules: one module per rule, and what they share.

- ``meta.py``: ``RuleMeta``, a rule's metadata as plain data.
- ``registry.py``: every rule's metadata and what rule selectors mean; imports no rule code,
  so reporters, configuration and suppressions use it without loading the model.
- ``all_rules.py``: the rule classes, for the engine (generated, like the registry's list, by
  ``scripts/update_registry.py``).
- ``base.py`` and ``context.py``: the ``Rule`` protocol and what a rule sees of a file.
- one module per rule (``discarded_store_result.py`` ...), with its ``META``.

This package imports nothing itself: importing ``burnlint.rules.registry`` must stay light.
"""
