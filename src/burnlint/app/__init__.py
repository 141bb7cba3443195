"""The application layer: what a run of ``burnlint check`` does, whatever the front end.

The command line (``cli/``) maps its parameters to a request and prints what comes back;
the workflow itself lives here: the runs of the engine per configuration, the post-run actions
(``fix``, ``add_allow``, ``baseline``, ``statistics``), and the outputs.
"""

# Exit codes (DESIGN.md section 4): nothing at or above --fail-on; findings; a usage, a
# configuration or an internal error, or a check that did not complete.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
