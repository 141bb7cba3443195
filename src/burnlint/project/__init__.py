"""The project: which files to check, their crates and cargo targets, the burn release
they build against, and the prefilter."""
