"""Requires-Python readings (helper reqpy, 2026-12-05): the interpreter older than the release a failure needs.

- ``catalog/data/requires_python.json`` (tools/build_requires_python.py, from the package index's Requires-Python of
  each release) and its lookups: the Requires-Python of any release, which releases refuse an interpreter.
- logversions' "python": the interpreter's version as a log shows it (lib/pythonX.Y paths, pip's refusal, the banner).
- DRV-pythonver: pip finding no release that admits the interpreter, a name whose first release needs a newer Python
  than the log's (combined with api_history), Python 2's "No module named X" for a package of the stack; silent on
  healthy logs and where the log's Python satisfies every release in question.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.analyzers import pythonver
from ascendrl.catalog.logversions import read_versions

CATALOG = load_catalog()
TABLE = Path(pythonver.__file__).resolve().parent.parent / "data" / "requires_python.json"


def _result(text: str, catalog=CATALOG):
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _kinds(result) -> list[str]:
    return [d.kind for d in result.diagnoses]


def _ids(result) -> list[str]:
    return [d.entry.id for d in result.diagnoses]


def test_the_table_is_small_and_says_where_it_came_from():
    text = TABLE.read_text()
    assert len(text.encode()) < 300_000
    table = json.loads(text)
    assert "requires-python" in table["source"] and table["built"]
    for pip in ("verl", "vllm", "transformers", "trl", "ray", "torch", "math-verify", "latex2sympy2-extended"):
        rows = table["packages"][pip]["releases"]
        assert len(rows) >= 2, pip
        assert all(len(r) == 3 for r in rows), pip


def test_requires_python_of_a_release_between_kept_ones():
    # verl declared >=3.8 until 0.5.0, which raised it to >=3.10 (the index's metadata of each release)
    assert pythonver.requires_at("verl", "0.4.0") == ">=3.8"
    assert pythonver.requires_at("verl", "0.5.0") == ">=3.10"
    assert pythonver.requires_at("math-verify", "0.5.1") == ">=3.10"
    assert pythonver.requires_at("trl", "0.14.0") == ">=3.9"
    assert pythonver.requires_at("no-such-package", "1.0") is None


def test_admits_reads_a_minor_as_any_of_its_patches():
    assert pythonver.admits(">=3.10", "3.10")
    assert not pythonver.admits(">=3.10", "3.9")
    assert not pythonver.admits(">=3.10", "3.9.18")
    assert not pythonver.admits("<3.13,>=3.10", "3.13")
    assert pythonver.admits(">=3.9.1", "3.9")  # 3.9.x may be 3.9.1 or later: no refusal is claimed
    assert pythonver.admits(None, "2.7")


def test_refusal_names_the_first_release_that_needs_a_newer_python():
    r = pythonver.refusal("trl", "3.8")
    assert r is not None and not r.every and r.first == "0.12.0" and r.spec == ">=3.9"
    assert r.admitted.startswith("0.11")
    assert pythonver.refusal("math-verify", "3.9").every
    assert pythonver.refusal("math-verify", "3.10") is None  # the newest release admits it: the interpreter is fine
    assert pythonver.refusal("trl", "3.12") is None
    pinned = pythonver.refusal("math-verify", "3.9", "==0.5.2")
    assert pinned is not None and pinned.every and pinned.first == "0.5.2"
    # a pin to releases that still admit the interpreter: nothing to say
    assert pythonver.refusal("trl", "3.8", "<0.12") is None


def test_the_log_states_the_interpreter():
    stated = read_versions([
        "Requirement already satisfied: dill in /opt/conda/envs/verl/lib/python3.9/site-packages (from verl==0.2.0.dev0) (0.3.8)",
    ])
    assert stated["python"].version == "3.9"
    assert read_versions(["ERROR: Package 'trl' requires a different Python: 3.8.17 not in '>=3.9'"])["python"].version == "3.8.17"
    assert read_versions(["Python 3.9.9"])["python"].version == "3.9.9"
    assert "python" not in read_versions(["pip install python-dotenv==1.0.1", "Python is great"])


def test_pip_finding_no_release_for_this_python_is_the_interpreter():
    log = ("Requirement already satisfied: numpy in /usr/lib/python3.8/site-packages (from verl==0.4.1) (1.24.4)\n"
           "ERROR: Could not find a version that satisfies the requirement trl>=0.14 (from verl) (from versions: 0.4.7, 0.11.4)\n"
           "ERROR: No matching distribution found for trl>=0.14\n")
    result = _result(log)
    assert result.diagnoses[0].kind == "python-too-old", (_ids(result), _kinds(result))
    notes = " ".join(result.diagnoses[0].notes) + result.diagnoses[0].entry.cause
    assert "trl" in notes and ">=3.9" in notes


def test_silent_when_the_logs_python_is_admitted():
    log = ("Requirement already satisfied: numpy in /usr/lib/python3.11/site-packages (from verl==0.4.1) (1.26.4)\n"
           "ERROR: Could not find a version that satisfies the requirement trl>=0.14 (from verl) (from versions: none)\n"
           "ERROR: No matching distribution found for trl>=0.14\n")
    result = _result(log)
    assert "python-too-old" not in _kinds(result), (_ids(result), _kinds(result))
    assert all("DRV-pythonver" not in n for d in result.diagnoses for n in d.notes)


def test_silent_on_a_package_some_release_of_which_admits_an_unstated_python():
    # trl has releases for Python 3.7: without the log's interpreter, its absence from the index is not the Python
    result = _result("ERROR: Could not find a version that satisfies the requirement trl (from versions: none)\n"
                     "ERROR: No matching distribution found for trl\n")
    assert "python-too-old" not in _kinds(result), (_ids(result), _kinds(result))


def test_cannot_import_a_name_whose_first_release_needs_a_newer_python():
    log = ('Traceback (most recent call last):\n'
           '  File "/opt/conda/envs/rl/lib/python3.8/site-packages/swift/trainers/rlhf_arguments.py", line 6, in <module>\n'
           '    from trl import GRPOConfig as HfGRPOConfig\n'
           "ImportError: cannot import name 'GRPOConfig' from 'trl' (/opt/conda/envs/rl/lib/python3.8/site-packages/trl/__init__.py)\n")
    top = _result(log).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-pythonver", "python-too-old")
    assert "trl 0.14.0" in top.entry.cause and ">=3.9" in top.entry.cause and "3.8" in top.entry.cause
    # the same import on Python 3.10: trl 0.14 installs there, so the package is what is behind
    newer = _result(log.replace("python3.8", "python3.10")).diagnoses[0]
    assert newer.kind == "trl-too-old", (newer.entry.id, newer.kind)


def test_python2_wording_for_a_package_of_the_stack():
    log = ("Traceback (most recent call last):\n"
           '  File "/home/user/test-task.py", line 2, in <module>\n'
           "    import ray\n"
           "ImportError: No module named ray\n")
    top = _result(log).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-pythonver", "python-too-old")
    # Python 3's wording of the same import is a missing package, not the interpreter
    py3 = _result(log.replace("ImportError: No module named ray", "ModuleNotFoundError: No module named 'ray'"))
    assert "python-too-old" not in _kinds(py3), (_ids(py3), _kinds(py3))
    # Python 2's words for a module no release table knows (a project's own module): not claimed
    own = _result(log.replace("ray", "crnnport"))
    assert "python-too-old" not in _kinds(own), (_ids(own), _kinds(own))


def test_healthy_log_is_silent():
    log = ("Requirement already satisfied: accelerate in /opt/conda/envs/verl/lib/python3.9/site-packages (1.5.2)\n"
           "Successfully installed verl-0.4.1\n"
           "Python 3.9.18\n")
    result = _result(log)
    assert not result.diagnoses and result.unknown is None, (_ids(result), result.unknown)
