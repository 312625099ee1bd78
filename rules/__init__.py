"""The pure rules core and encounter engine.

No Textual, Rich or TinyDB imports here (enforced by
``tests/rules/test_layering.py``).  ``../shared/RULES.md`` is the specification;
each function's docstring names the section it implements.
"""
