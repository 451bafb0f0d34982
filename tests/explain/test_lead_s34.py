"""Session 34 (lead): a traceback whose newlines were lost is read as its lines; a bare exception type resembles nothing.

Issue titles, web pages, forum posts and some issue archives keep a traceback's text but not its line breaks, so the
header, every frame, its code and the exception line sit on one line that no reader took apart
(normalize._flattened_lines). And a traceback whose message is empty ("RuntimeError" alone) says nothing the similar
index could compare: it resembles every other bare RuntimeError, whatever caused it (similar.informative).
"""

from __future__ import annotations

from pathlib import Path

from ascendrl.catalog import explain_paths, load_catalog, similar
from ascendrl.catalog.normalize import unfold_one_line_reports_mapped

HERE = Path(__file__).parent
DEV = HERE / "realworld" / "dev"
CATALOG = load_catalog(user_dir=HERE / "no-user-catalog")

# The shape of a flattened paste (a verl import chain ending in a transformers ImportError), on one line.
FLAT_IMPORT = (
    'Traceback (most recent call last):   File "/usr/local/python3.10/lib/python3.10/site-packages/verl/trainer/'
    'main_ppo.py", line 20, in <module>     from verl.trainer.ppo.ray_trainer import RayPPOTrainer   File '
    '"/usr/local/python3.10/lib/python3.10/site-packages/verl/trainer/ppo/ray_trainer.py", line 30, in <module>     '
    "from transformers import PreTrainedTokenizer ImportError: cannot import name 'PreTrainedTokenizer' from "
    "'transformers' (/usr/local/python3.10/lib/python3.10/site-packages/transformers/__init__.py)\n"
)


def _lines(text: str) -> list[str]:
    out, _ = unfold_one_line_reports_mapped(text.encode())
    return out.decode().split("\n")


def test_a_flattened_traceback_is_written_out_as_python_prints_it():
    lines = _lines(FLAT_IMPORT)
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].startswith('  File "') and lines[1].endswith("main_ppo.py\", line 20, in <module>")
    assert lines[2] == "    from verl.trainer.ppo.ray_trainer import RayPPOTrainer"
    assert lines[4] == "    from transformers import PreTrainedTokenizer"
    assert lines[5].startswith("ImportError: cannot import name 'PreTrainedTokenizer' from 'transformers'")


def test_a_flattened_import_failure_names_the_two_packages(tmp_path):
    log = tmp_path / "title.log"
    log.write_text(FLAT_IMPORT, encoding="utf-8")
    result = explain_paths(CATALOG, [log])
    top = result.diagnoses[0]
    assert top.entry.id == "DRV-package", result.diagnoses
    assert "transformers" in top.entry.title and "verl" in top.entry.title
    assert top.line == 1  # the one input line it was read from


def test_the_raise_is_code_and_the_exception_line_follows_it():
    text = ('Traceback (most recent call last): File "/srv/a.py", line 3, in f raise ValueError(f"bad {x}") '
            "ValueError: bad 3 During handling of the above exception, another exception occurred: "
            'Traceback (most recent call last): File "/srv/b.py", line 9, in g f() RuntimeError: wrapped\n')
    assert _lines(text)[:9] == [
        "Traceback (most recent call last):",
        '  File "/srv/a.py", line 3, in f',
        '    raise ValueError(f"bad {x}")',
        "ValueError: bad 3",
        "During handling of the above exception, another exception occurred:",
        "Traceback (most recent call last):",
        '  File "/srv/b.py", line 9, in g',
        "    f()",
        "RuntimeError: wrapped",
    ]


def test_real_flattened_pastes_keep_their_cause_and_line():
    """A Hugging Face Space's error page (header and frames on one line) and an mmcv issue whose frames lost their
    breaks: the exception line each states is read, at the input line that carried it."""
    result = explain_paths(CATALOG, [DEV / "hf-space-mattricesound-RemFx.log"])
    top = result.diagnoses[0]
    assert top.excerpt.startswith("RuntimeError: Numpy is not available") and top.line == 6, result.diagnoses
    out, unfolded = unfold_one_line_reports_mapped((DEV / "mmcv-3203.log").read_bytes())
    assert unfolded is not None and b"\n    return tensor.normal_(0, std)\nRuntimeError: Run:" in out


def test_ordinary_tracebacks_and_a_lone_frame_are_left_alone():
    ordinary = (b'Traceback (most recent call last):\n  File "/srv/a.py", line 3, in f\n    g()\n'
                b"RuntimeError: boom\n")
    out, unfolded = unfold_one_line_reports_mapped(ordinary)
    assert out is ordinary and unfolded is None
    lone = b'see File "/srv/a.py", line 3, in f where g() is called\n'  # one frame, no header: not a traceback
    assert unfold_one_line_reports_mapped(lone)[0] is lone


def test_a_bare_exception_type_resembles_nothing():
    assert not similar.informative(["RuntimeError:"])
    assert similar.informative(["KeyError: <*>"])  # a missing key is something
    assert similar.informative(["RuntimeError: Numpy is not available"])
    result = similar.with_similar(explain_paths(CATALOG, [DEV / "hiascend-pytorch-commonqa-0009.log"]), CATALOG)
    assert not result.diagnoses or result.diagnoses[0].basis != "similar", result.diagnoses
    assert result.unknown is not None and result.unknown.type == "RuntimeError"


def _top(tmp_path, text: str):
    log = tmp_path / "paste.log"
    log.write_text(text, encoding="utf-8")
    result = explain_paths(CATALOG, [log])
    return result.diagnoses[0] if result.diagnoses else None, result


def test_a_module_used_without_its_import_is_named_with_the_import_line(tmp_path):
    top, _ = _top(tmp_path, 'Traceback (most recent call last):\n  File "/srv/reward/score.py", line 7, in compute_score\n'
                            "    return float(np.mean(hits))\nNameError: name 'np' is not defined\n")
    assert top is not None and top.entry.id == "DRV-missing-import" and top.kind == "python-missing-import"
    assert "import numpy as np" in " ".join(top.entry.fix) and "/srv/reward/score.py" in " ".join(top.entry.fix)


def test_an_installed_packages_missing_import_is_that_releases_bug(tmp_path):
    top, _ = _top(tmp_path, 'Traceback (most recent call last):\n  File "/usr/local/lib/python3.11/site-packages/verl/utils/'
                            'fs.py", line 40, in copy_to_local\n    if not os.path.exists(src):\n'
                            "NameError: name 'os' is not defined. Did you forget to import 'os'?\n")
    assert top is not None and top.entry.id == "DRV-missing-import"
    assert "verl" in top.entry.title and "Upgrade verl" in top.entry.fix[0]


def test_an_undefined_name_that_is_no_module_is_left_alone(tmp_path):
    top, result = _top(tmp_path, 'Traceback (most recent call last):\n  File "/srv/train.py", line 3, in <module>\n'
                                 "    run(cfg)\nNameError: name 'cfg' is not defined\n")
    assert top is None or top.entry.id != "DRV-missing-import"


def test_the_resolvers_words_without_an_errno_name_an_unresolvable_host(tmp_path):
    top, _ = _top(tmp_path, "Temporary failure in name resolution\n")
    assert top is not None and top.kind == "hostname-unresolvable", top
    # ssh's / curl's words: "resolve" after a negation is the resolver failing, not a sentence about resolving an error
    top, _ = _top(tmp_path, "Could not resolve hostname node-7: Name or service not known\n")
    assert top is not None and top.kind == "hostname-unresolvable", top
    top, _ = _top(tmp_path, "How to resolve HCCL timeout error\n")
    assert top is None
    # the resolver's words inside some other message do not make a lone sentence of it
    top, _ = _top(tmp_path, "INFO retrying: Name or service not known (attempt 1 of 5)\nstep:1 - loss:0.52\n")
    assert top is None or top.kind != "hostname-unresolvable" or top.fatal is False

