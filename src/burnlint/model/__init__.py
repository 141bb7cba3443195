"""The semantic model: what the rules ask about one file, computed once (DESIGN.md section 2).

``file_model.FileModel`` is the composition root: it builds each analysis lazily and hands
itself to it. Each analysis is typed against a small protocol of what it reads of the file
(``reads.SyntaxReads`` and one per analysis: ``stores.StoreReads``, ``ops.OpReads`` ..), so
none imports ``file_model`` and the imports form layers, inner to outer:

- facts without a tree: ``burn_api`` (burn-store's API by release), ``burn_layers``,
  ``limits`` (every depth and step bound), ``items``, ``resolve`` (calls by path and type),
  ``helpers`` (what a crate-local function does with a store, as plain data);
- the file's names and forms: ``scopes``, ``reads``, ``places``, ``imports``, ``layout``,
  ``loops``, ``paths``, ``result_forms``;
- the analyses: ``stores`` -> ``ops``; ``results`` and ``apply_checks`` -> ``apply_trace``;
  ``calls`` -> ``loaded_type``; then ``summaries``, ``negative_tests`` -> ``keymapping`` ->
  ``key_verdicts`` (which key-mapping rule reports each option) and ``repeats``;
- ``file_model``, which imports them all.

Nothing here prints or reads configuration; ``tests/model/`` tests analyses on snippets.
This package imports nothing itself.
"""
