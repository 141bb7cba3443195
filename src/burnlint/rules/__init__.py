"""The rules: one module per rule, and what they share.

- ``meta.py``: ``RuleMeta``, a rule's metadata as plain data.
- ``registry.py``: every rule's metadata and what rule selectors mean; imports no rule code,
  so reporters, configuration and suppressions use it without loading the model.
- ``all_rules.py``: the rule classes, for the engine (generated, like the registry's list, by
  ``scripts/update_registry.py``).
- ``base.py`` and ``context.py``: the ``Rule`` and ``Violation`` protocols, and what a rule
  sees of a file (``RuleContext.report`` makes a finding from a violation).
- ``fixes.py`` and ``wording.py``: the fixes and the words more than one rule uses.
- one module per rule (``discarded_store_result.py`` ...), with its ``META``, its violations and
  its ``VALID``/``INVALID`` snippets; no rule imports another. ``scripts/new_rule.py`` makes one.

This package imports nothing itself: importing ``burnlint.rules.registry`` must stay light.
"""
