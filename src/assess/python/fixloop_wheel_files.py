"""The files a wheel of the project in the current folder holds, as checkout paths.

`python fixloop_wheel_files.py <list.json> <wheel folder>` builds the wheel with the project's own
build backend (the PEP 517 hook `build_wheel`, as `pip wheel --no-build-isolation` calls it: the
backend installed beside the interpreter, nothing downloaded), and writes the JSON list of the
checkout files it packed: each wheel entry (but its `.dist-info`) matched to the file of the same
relative path, or, in a `src/` or other layout, to the shortest path ending with it. Exit 1, with the
reason on stderr, when it cannot (no build configuration, a backend not installed, a build that
fails). Standard library only; Python 3.8+ (the configuration is read with `tomllib`, 3.11+).
"""
import importlib
import json
import os
import shutil
import sys
import zipfile

# What the build writes in the checkout, and what is never the project's own source.
_SKIPPED = {".git", "build", "dist", "node_modules", "__pycache__", ".fixloop-probe", ".venv", "venv"}


def _backend():
    """The build backend the project names (setuptools' legacy one for a setup.py alone), and its name."""
    name, paths = None, []
    if os.path.exists("pyproject.toml"):
        try:
            import tomllib
        except ImportError:
            raise SystemExit("no TOML reader in this Python (tomllib is 3.11+)")
        with open("pyproject.toml", "rb") as file:
            system = tomllib.load(file).get("build-system", {})
        name, paths = system.get("build-backend"), system.get("backend-path", [])
    if not name:
        if not os.path.exists("setup.py"):
            raise SystemExit("no build backend: pyproject.toml names none and there is no setup.py")
        name = "setuptools.build_meta:__legacy__"
    for path in paths:
        sys.path.insert(0, os.path.abspath(path))
    module, _, attribute = name.partition(":")
    backend = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        backend = getattr(backend, part)
    return name, backend


def _sources():
    """Every file of the checkout, relative, but those of build output, caches and environments."""
    found = []
    for folder, subfolders, names in os.walk("."):
        subfolders[:] = [d for d in subfolders if d not in _SKIPPED and not d.endswith(".egg-info")]
        found.extend(os.path.relpath(os.path.join(folder, name)).replace(os.sep, "/") for name in names)
    return found


def _checkout_paths(entries, sources):
    """Each wheel entry's checkout file: the same path, else the shortest one ending with it."""
    present = set(sources)
    paths = []
    for entry in entries:
        if entry in present:
            paths.append(entry)
            continue
        ending = [path for path in sources if path.endswith("/" + entry)]
        if ending:
            paths.append(min(ending, key=len))
    return paths


def _wheel_entries(backend, folder):
    """The wheel's files, but its .dist-info."""
    wheel = backend.build_wheel(os.path.abspath(folder))
    with zipfile.ZipFile(os.path.join(folder, wheel)) as archive:
        return [name for name in archive.namelist() if not name.split("/", 1)[0].endswith(".dist-info")]


def _setuptools_entries(folder):
    """What setuptools' build_py puts in a wheel (its packages, modules and package data), where the
    backend cannot build one: setuptools before 70.1 needs the `wheel` package for that. Built in a
    folder of its own, apart from what the failed wheel build may have left."""
    import setuptools

    built = os.path.abspath(os.path.join(folder, "build_py"))
    sys.argv = ["setup.py", "build_py", "--build-lib", built]
    if os.path.exists("setup.py"):
        _run_setup_py()
    else:
        setuptools.setup(script_args=sys.argv[1:])
    return [os.path.relpath(os.path.join(d, n), built).replace(os.sep, "/") for d, _, ns in os.walk(built) for n in ns]


def _run_setup_py():
    """A setup.py run as pip would run it, with the arguments set in sys.argv."""
    with open("setup.py", "rb") as file:
        code = compile(file.read(), "setup.py", "exec")
    exec(code, {"__name__": "__main__", "__file__": os.path.abspath("setup.py")})


def _made_by(work):
    """`work`'s result, with what it added at the checkout's top and in src/ (build/, *.egg-info) removed."""
    folders = [".", "src"]
    before = {folder: set(os.listdir(folder)) for folder in folders if os.path.isdir(folder)}
    try:
        return work()
    finally:
        for folder, names in before.items():
            for name in set(os.listdir(folder)) - names:
                path = os.path.join(folder, name)
                if os.path.isdir(path):
                    shutil.rmtree(path)
                else:
                    os.remove(path)


def _entries(folder):
    name, backend = _backend()
    try:
        return _wheel_entries(backend, folder)
    except (Exception, SystemExit) as error:
        if not name.startswith("setuptools"):
            raise SystemExit("the build backend could not build a wheel: %s" % (error,))
        return _setuptools_entries(folder)


def main():
    listed, folder = sys.argv[1], sys.argv[2]
    # An earlier version's wheel or build is not this one's.
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    entries = _made_by(lambda: _entries(folder))
    with open(listed, "w") as file:
        json.dump(_checkout_paths(entries, _sources()), file)


if __name__ == "__main__":
    main()
