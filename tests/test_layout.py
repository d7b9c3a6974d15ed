"""The package layout: the core imports no UI library, and no module of meteor_core imports,
directly or through others, a module that imports it back."""
import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "meteor_core"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """meteor_core modules that ``name`` imports anywhere in its file (in functions too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # `from . import resources` imports the module resources
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in known and m != name}


def _import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def test_the_graph_sees_imports():
    graph = _import_graph()
    assert "meteor_core.align.search" in graph["meteor_core.align.optimal"]
    assert "meteor_core.resources" in graph["meteor_core.align.optimal"]  # from .. import resources
    assert "meteor_core.setup_data" in graph["meteor_core.cli.setup"]  # a function-level import


def test_no_import_cycle_inside_meteor_core():
    graph = _import_graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module, path):
        state[module] = 1
        for nxt in sorted(graph[module]):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_layers_import_downward_only():
    graph = _import_graph()
    for module, targets in graph.items():
        if module.startswith("meteor_core.align"):  # the aligners know nothing of what uses them
            assert not {t for t in targets if t.startswith(("meteor_core.scorer", "meteor_core.analysis",
                                                              "meteor_core.cli", "meteor_core.explain"))}, module
        if not module.startswith(("meteor_core.cli", "meteor_core.__main__")):  # only the entry points
            assert not {t for t in targets if t.startswith("meteor_core.cli")}, module


def test_core_imports_no_ui_library():
    code = (
        "import pkgutil, importlib, sys, meteor_core\n"
        "for m in pkgutil.walk_packages(meteor_core.__path__, 'meteor_core.'):\n"
        "    if m.name != 'meteor_core.__main__': importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly'))\n"
        "print(len([m for m in sys.modules if m.startswith('meteor_core')]), bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent, check=True)
    count, bad = out.stdout.split(" ", 1)
    assert int(count) >= 20 and bad.strip() == "[]", out.stdout
