"""The package version, in a module of its own so that any module can read it without importing
the package's ``__init__`` (which imports nearly everything)."""
__version__ = "0.2.0"
