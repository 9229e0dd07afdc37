"""The package's public surface: stubs cover every public name, and every name is documented."""

import ast
import inspect
import pathlib

import onyx

STUBS = pathlib.Path(onyx.__file__).with_name("__init__.pyi")


def stub_names():
    tree = ast.parse(STUBS.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    members.update(t.id for t in item.targets if isinstance(t, ast.Name))
            names[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
    return names


def test_stubs_name_every_public_name():
    stubs = stub_names()
    assert set(onyx.__all__) <= set(stubs), set(onyx.__all__) - set(stubs)
    for name in onyx.__all__:
        item = getattr(onyx, name)
        if inspect.isclass(item) and not issubclass(item, BaseException) and name != "DataType":
            missing = {m for m in vars(item) if not m.startswith("_")} - stubs[name]
            assert not missing, f"{name}: {missing} not in the stubs"


def test_every_public_name_is_documented():
    undocumented = []
    for name in onyx.__all__:
        item = getattr(onyx, name)
        if not (item.__doc__ or "").strip():
            undocumented.append(name)
        if inspect.isclass(item) and not issubclass(item, BaseException) and name != "DataType":
            for member, value in vars(item).items():
                if member.startswith("_"):
                    continue
                doc = (getattr(value, "__doc__", None) or "").strip()
                # pybind11 writes a signature line for every function; a description follows
                # it when the binding gives one.
                lines = [line for line in doc.splitlines() if line.strip()]
                described = any(not line.startswith(f"{member}(") for line in lines)
                if not described:
                    undocumented.append(f"{name}.{member}")
    assert not undocumented, undocumented
