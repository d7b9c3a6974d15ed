"""Build meteor_core's optional compiled accelerator: Cython compiles the modules listed in
meteor_core/_accel.py from their own .py sources, in place (a .so beside each .py), and records
each source's hash, so that a module edited since the build runs from its .py (see _accel.py).

    python build_accel.py          # build what is missing or out of date (./run.sh setup runs this)
    python build_accel.py --clean  # remove the compiled modules: pure Python everywhere

Without Cython or a C compiler nothing is built and meteor_core runs as pure Python; the exit
status is 0 either way (the accelerator is never required), and the message says which it is.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# _accel.py by its path: importing the meteor_core package could load the very .so files the
# build is about to overwrite.
_spec = importlib.util.spec_from_file_location("meteor_core_accel", ROOT / "meteor_core" / "_accel.py")
_accel = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_accel)

# Compiled as ordinary Python: type annotations are not turned into C types (a float annotation
# would become a C double), so the compiled modules behave exactly as the .py files do. C types
# come only from a .pxd beside a .py (align/beam.pxd), where each is chosen and its range bounded.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}


def up_to_date() -> bool:
    built = _accel._built()
    return all(_accel._has_binary(m) and built.get(m) == _accel.source_hash(m) for m in _accel.COMPILED)


def clean() -> None:
    for module in _accel.COMPILED:
        source = _accel.source_path(module)
        for binary in source.parent.glob(source.stem + ".*.so"):
            binary.unlink()
    _accel.MANIFEST.unlink(missing_ok=True)


def build() -> int:
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution
    except ImportError:
        print("[accel] Cython is not installed: meteor_core runs as pure Python", file=sys.stderr)
        return 0
    if up_to_date():
        print("[accel] compiled modules are up to date", file=sys.stderr)
        return 0
    sources = [str(_accel.source_path(m).relative_to(ROOT)) for m in _accel.COMPILED]
    hashes = {m: _accel.source_hash(m) for m in _accel.COMPILED}  # what is being compiled
    with tempfile.TemporaryDirectory() as tmp:
        try:
            extensions = cythonize(sources, compiler_directives=DIRECTIVES, build_dir=tmp, quiet=True, nthreads=2)
            dist = Distribution({"ext_modules": extensions, "script_args": ["build_ext", "--inplace", "-j", "2",
                                                                            "--build-temp", tmp]})
            dist.parse_command_line()
            dist.run_commands()
        except Exception as exc:  # no compiler, a Cython error...: pure Python still works
            print(f"[accel] the build failed ({exc}); meteor_core runs as pure Python", file=sys.stderr)
            clean()
            return 0
    _accel.MANIFEST.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    print(f"[accel] compiled {len(sources)} modules with Cython", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    if args.clean:
        clean()
        print("[accel] compiled modules removed: pure Python", file=sys.stderr)
        return 0
    return build()


if __name__ == "__main__":
    raise SystemExit(main())
