"""The notebooks of docs/notebooks and their solutions, executed with
nbclient in a kernel running this interpreter, and their outputs checked:

  - no cell raises (the notebooks assert what they show);
  - a cell whose metadata has blockfilter.expect (a list of regular
    expressions) prints text matching each of them;
  - a cell whose metadata has blockfilter.figure draws a figure (PNG);
  - every numbered notebook ends with exercises and has a solutions file.

To store fresh outputs in the notebooks (what readers see on the web):
    python3 python/tests/test_notebooks.py --write [NOTEBOOK...]
with the package installed in that interpreter.
"""
import json
import pathlib
import re
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
NB_DIR = ROOT / "docs" / "notebooks"
MAIN = sorted(NB_DIR.glob("[0-9][0-9]-*.ipynb"))
SOLUTIONS = sorted((NB_DIR / "solutions").glob("*.ipynb"))

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
kernelspec = pytest.importorskip("jupyter_client.kernelspec")
manager = pytest.importorskip("jupyter_client.manager")


def execute(path: pathlib.Path, kernel_dir: pathlib.Path):
    """Runs a notebook in its own folder with a kernel of this interpreter
    (the one the package is installed in); returns the executed notebook."""
    spec = kernel_dir / "bfpy"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"],
        "display_name": "blockfilter", "language": "python"}))
    ksm = kernelspec.KernelSpecManager(kernel_dirs=[str(kernel_dir)])
    km = manager.KernelManager(kernel_name="bfpy", kernel_spec_manager=ksm)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, km=km, timeout=600, kernel_name="bfpy",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def text_of(cell):
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(o.get("text", ""))
        elif "data" in o and "text/plain" in o["data"]:
            out.append(o["data"]["text/plain"])
    return "".join(out)


def check(nb, name):
    figures = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("blockfilter", {})
        text = text_of(cell)
        for pattern in meta.get("expect", []):
            assert re.search(pattern, text), (
                f"{name}, cell {i}: no output matches {pattern!r}; the output was:\n{text}")
        pngs = sum("image/png" in o.get("data", {}) for o in cell.get("outputs", []))
        if meta.get("figure"):
            assert pngs >= 1, f"{name}, cell {i}: no figure drawn"
        figures += pngs
    return figures


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("kernels")


def test_every_notebook_has_exercises_and_solutions():
    assert len(MAIN) == 5, MAIN
    for path in MAIN:
        nb = nbformat.read(path, as_version=4)
        last = nb.cells[-1]
        assert last.cell_type == "markdown" and "## Exercises" in last.source, path.name
        sol = NB_DIR / "solutions" / (path.stem + "-solutions.ipynb")
        assert sol.exists(), sol


@pytest.mark.parametrize("path", MAIN + SOLUTIONS, ids=lambda p: p.stem)
def test_notebook_runs_and_shows_what_it_says(path, kernel_dir):
    nb = execute(path, kernel_dir)
    figures = check(nb, path.name)
    if path in MAIN:
        assert figures >= 1, f"{path.name}: no matplotlib figure"


if __name__ == "__main__":
    if sys.argv[1:2] != ["--write"]:
        sys.exit(__doc__)
    paths = [pathlib.Path(p).resolve() for p in sys.argv[2:]] or MAIN + SOLUTIONS
    with tempfile.TemporaryDirectory() as d:
        for p in paths:
            nb = execute(p, pathlib.Path(d))
            check(nb, p.name)
            nbformat.write(nb, p)
            print("wrote", p.relative_to(ROOT))
