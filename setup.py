"""The compiled accelerator, for `pip install .` and the sdist (every other setting is in
pyproject.toml): Cython compiles the modules listed in meteor_core/_accel.py (BUILT: modules
compiled from their own .py sources, and C twins written as .pyx) where Cython and a C compiler
are present; otherwise one line says so and the package is
installed as pure Python (the same results, slower). build_accel.py builds the same extensions in
place in a checkout (./run.sh setup).

Beside the compiled modules the build writes meteor_core/_accel_manifest.json: the hash of each
module's source, so that a module whose .py changes after the build runs from its .py (_accel.py).
"""
from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# _accel.py by its path: importing the meteor_core package would import its dependencies, and
# could load the very compiled modules a build is about to replace.
_spec = importlib.util.spec_from_file_location("meteor_core_accel", ROOT / "meteor_core" / "_accel.py")
accel = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(accel)

# Compiled as ordinary Python: type annotations are not turned into C types (a float annotation
# would become a C double), so the compiled modules behave exactly as the .py files do. C types
# come only from a .pxd beside a .py (align/beam.pxd), where each is chosen and its range bounded.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}
# The C that Cython generates draws compiler warnings that say nothing about our sources (unused
# helper functions, variables the compiler cannot prove set on every path); a build shows none.
QUIET_COMPILER = ["/w"] if os.name == "nt" else ["-w"]


def notice(text: str) -> None:
    print(f"[accel] {text}", file=sys.stderr)


def extensions() -> list:
    """One extension per accelerated module, from its .py (Cython translates it when the build
    runs: an sdist ships no generated C)."""
    from setuptools import Extension

    return [Extension(m, [str(accel.source_path(m).relative_to(ROOT))]) for m in accel.BUILT]


def write_manifest(package_dir: Path) -> None:
    """The hash of every compiled module's source, beside the compiled modules."""
    hashes = {m: accel.source_hash(m) for m in accel.BUILT}
    (package_dir / accel.MANIFEST.name).write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n",
                                                  encoding="utf-8")


class OptionalBuildExt(build_ext):
    """build_ext that translates each module with Cython just before compiling it, and never fails
    the install: without Cython or a working C compiler it says so in one line and leaves the
    package pure Python."""

    cython_dir = str(Path("build") / "cython")  # where the generated C goes

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        try:
            import Cython  # noqa: F401
        except ImportError:
            if self.extensions:
                notice("Cython is not installed: meteor_core runs as pure Python")
            self.extensions = []

    def run(self):
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, missing headers, a Cython error...
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            notice(f"the compiled core could not be built ({reason}): meteor_core runs as pure Python")
            self._remove_built()
            return
        write_manifest(Path(self.get_ext_fullpath("meteor_core.version")).parent)
        notice(f"compiled {len(self.extensions)} modules with Cython")

    def build_extension(self, ext):
        if ext.sources[0].endswith((".py", ".pyx")):
            from Cython.Build import cythonize

            (translated,) = cythonize([ext.sources[0]], compiler_directives=DIRECTIVES, build_dir=self.cython_dir,
                                      quiet=True)
            ext.sources = translated.sources
        ext.extra_compile_args = QUIET_COMPILER
        super().build_extension(ext)

    def _remove_built(self):
        for extension in self.extensions:
            for where in (self.get_ext_fullpath(extension.name), Path(self.build_lib, self.get_ext_filename(
                    self.get_ext_fullname(extension.name)))):
                Path(where).unlink(missing_ok=True)
        self.extensions = []

    def get_outputs(self):  # the manifest is installed with the compiled modules
        outputs = super().get_outputs()
        if self.extensions:
            outputs.append(str(Path(self.get_ext_fullpath("meteor_core.version")).parent / accel.MANIFEST.name))
        return outputs


if __name__ == "__main__":
    setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
