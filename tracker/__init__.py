"""The Textual app and the ``combat-tracker`` command."""
