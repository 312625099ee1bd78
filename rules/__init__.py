"""The pure rules core and encounter engine: no Textual, Rich or TinyDB
imports (``tests/rules/test_layering.py``).  ``../shared/RULES.md`` is the
specification; each function's docstring names the section it implements."""
