"""The rules: one module per rule, and what they share.

- ``registry.py``: every rule's metadata (``findings.RuleMeta``) and what rule selectors mean;
  imports no rule code, so reporters, configuration and suppressions use it without loading
  the model.
- ``all_rules.py``: the rule classes, for the engine (generated, like the registry's list, by
  ``scripts/update_registry.py``).
- ``violation.py``, ``context.py`` and ``base.py``, in that order (each imports only the
  ones before it): a finding's words (``Violation``); what a rule sees of a file
  (``RuleContext.report`` makes a finding from a violation and a fix's ``FixEdits``); the
  ``Rule`` protocol, whose ``check`` takes a ``RuleContext``.
- ``fixes.py`` and ``wording.py``: the fixes and the words more than one rule uses.
- one module per rule (``discarded_store_result.py`` ...), with its ``META``, its violations and
  its ``VALID``/``INVALID`` snippets; no rule imports another. ``scripts/new_rule.py`` makes one.

This package imports nothing itself: importing ``burnlint.rules.registry`` must stay light.
"""
