"""A few thousand mutated files through the Python loaders, in a child
process: the interpreter must never crash, and every input loads or raises
ValueError / TypeError / KeyError / OSError. BFPY_FUZZ_SEED and
BFPY_FUZZ_COUNT change the run (the default is fixed, so failures repeat)."""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def test_mutated_files_never_crash(data, tmp_path):
    seed = os.environ.get("BFPY_FUZZ_SEED", "1")
    count = os.environ.get("BFPY_FUZZ_COUNT", "3000")
    r = subprocess.run([sys.executable, str(HERE / "fuzz_worker.py"), str(data), str(tmp_path),
                        seed, count], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, (r.returncode, r.stdout[-2000:], r.stderr[-4000:])
    n, rest = r.stdout.split(" inputs: ")
    loaded, refused = [int(x.split()[0]) for x in rest.split(", ")]
    assert int(n) == int(count) and loaded > 100 and refused > 100, r.stdout
