"""Writes generated fuzz seeds: shared by the make_*_seeds.py scripts."""
import pathlib
import sys


def write_seeds(seeds):
    """Writes each NAME -> bytes of `seeds` under the corpus directory given
    as the script's first argument (default: tests/fuzz/corpus)."""
    corpus = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "corpus")
    for name, data in seeds.items():
        path = corpus / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path} ({len(data)} bytes)")
