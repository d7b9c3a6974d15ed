"""Build meteor_core's optional compiled accelerator in a checkout: the extensions setup.py
defines (the modules listed in meteor_core/_accel.py, compiled by Cython from their own .py
sources), in place (a .so beside each .py), with the manifest of their sources' hashes, so that
a module edited since the build runs from its .py (see _accel.py). `pip install .` builds the
same extensions into the installed package.

    python build_accel.py          # build what is missing or out of date (./run.sh setup runs this)
    python build_accel.py --clean  # remove the compiled modules: pure Python everywhere

Without Cython or a C compiler nothing is built and meteor_core runs as pure Python; the exit
status is 0 either way (the accelerator is never required), and one line says which it is.
"""
from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("meteor_setup", ROOT / "setup.py")
setup_py = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(setup_py)  # (its setup() runs only as a script)
_accel = setup_py.accel


def up_to_date() -> bool:
    built = _accel._built()
    return all(_accel._has_binary(m) and built.get(m) == _accel.source_hash(m) for m in _accel.BUILT)


def clean() -> None:
    for module in _accel.BUILT:
        source = _accel.source_path(module)
        for binary in source.parent.glob(source.stem + ".*.so"):
            binary.unlink()
    _accel.MANIFEST.unlink(missing_ok=True)


def build() -> int:
    if up_to_date():
        setup_py.notice("compiled modules are up to date")
        return 0
    import os

    from setuptools import Distribution

    os.chdir(ROOT)  # the extensions' sources are relative paths
    clean()  # nothing half old, half new if the build stops
    with tempfile.TemporaryDirectory() as tmp:
        class BuildExt(setup_py.OptionalBuildExt):
            cython_dir = tmp

        dist = Distribution({"ext_modules": setup_py.extensions(), "cmdclass": {"build_ext": BuildExt},
                             "script_args": ["build_ext", "--inplace", "--build-temp", tmp]})
        dist.parse_command_line()
        dist.run_commands()
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    if args.clean:
        clean()
        setup_py.notice("compiled modules removed: pure Python")
        return 0
    return build()


if __name__ == "__main__":
    raise SystemExit(main())
