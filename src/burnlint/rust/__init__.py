"""Rust source as burnlint reads it: the tree-sitter parser, queries and walks, and
``SourceFile`` (bytes, tree, lines and columns)."""
