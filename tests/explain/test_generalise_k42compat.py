"""Readings widened by helper k42compat (2026-12-05) from NumPy's own source, for a class of failure rather than one paste:

NumPy says in its errors which release took a name away (numpy/__init__.py and numpy/lib/__init__.py ``__getattr__``):
- the builtin aliases deprecated in 1.20 and removed in 1.24 (np.float, np.int, np.bool, np.object, np.str, np.complex,
  np.long, np.unicode; 1.25 on add "`np.float` was a deprecated alias for the builtin `float`") and NEP 32's financial
  functions (removed in 1.20): numpy newer than the caller (numpy-too-new);
- the numpy.lib submodules NumPy 2.0 made private ("No module named 'numpy.lib.function_base'", "numpy.lib.utils is now
  private"): NumPy-1 code under NumPy 2 (numpy2-incompatible);
- numpy._core (NumPy 2's name for numpy.core; 1.26.1-1.26.x carry a stub of eight modules) missing: a NumPy 2 pickle or
  build read by an older NumPy (numpy-too-old).
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()
SITE = "/home/user/.venv/lib/python3.11/site-packages"


def _top(text: str) -> dict:
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result().to_json()["diagnoses"][0]


def _traceback(frame_pkg: str, line: str, error: str) -> str:
    return ("Traceback (most recent call last):\n"
            f'  File "{SITE}/{frame_pkg}/core.py", line 10, in run\n'
            f"    {line}\n"
            f"{error}\n")


def test_every_removed_builtin_alias_is_numpy_too_new():
    for name in ("float", "int", "bool", "object", "str", "complex", "long", "unicode"):
        top = _top(_traceback("librosa", f"x = np.{name}(3)", f"AttributeError: module 'numpy' has no attribute '{name}'."))
        assert top["id"] == "DRV-package" and top["kind"] == "numpy-too-new", name
        assert f"np.{name}" in top["title"] and "librosa" in top["title"]


def test_numpy_125_wording_alone_names_the_alias():
    top = _top("`np.int` was a deprecated alias for the builtin `int`. To avoid this error in existing code, use `int` by itself.\n"
               "AttributeError: module 'numpy' has no attribute 'int'.\n")
    assert top["kind"] == "numpy-too-new" and "1.24" in top["title"]


def test_a_name_numpy_never_removed_stays_a_plain_pair():
    top = _top(_traceback("librosa", "x = np.flaot(3)", "AttributeError: module 'numpy' has no attribute 'flaot'"))
    assert top.get("kind") not in ("numpy-too-new", "numpy2-incompatible", "numpy-too-old")


def test_private_lib_submodules_are_numpy2_incompatible():
    for sub in ("function_base", "arraysetops", "utils", "index_tricks"):
        top = _top(_traceback("outlines", f"from numpy.lib.{sub} import x", f"ModuleNotFoundError: No module named 'numpy.lib.{sub}'"))
        assert top["id"] == "DRV-package" and top["kind"] == "numpy2-incompatible", sub
    top = _top(_traceback("pkg", "np.lib.utils.x", "AttributeError: numpy.lib.utils is now private. If you are using a public "
                          "function, it should be available in the main numpy namespace, otherwise check the NumPy 2.0 migration guide."))
    assert top["kind"] == "numpy2-incompatible"
    # a public numpy.lib module NumPy 2 kept is not read as this class
    top = _top(_traceback("pkg", "from numpy.lib.format import x", "ModuleNotFoundError: No module named 'numpy.lib.formatx'"))
    assert top.get("kind") != "numpy2-incompatible"


def test_numpy_core_missing_is_numpy_too_old():
    top = _top(_traceback("joblib", "obj = pickle.load(f)", "ModuleNotFoundError: No module named 'numpy._core'"))
    assert top["id"] == "DRV-package" and top["kind"] == "numpy-too-old" and "1.26.1" in top["title"]
    # a module the 1.26 stub lacks needs NumPy 2
    top = _top(_traceback("joblib", "obj = pickle.load(f)", "ModuleNotFoundError: No module named 'numpy._core.numeric'"))
    assert top["kind"] == "numpy-too-old" and "2.0" in top["title"]


def test_nep32_financial_function():
    top = _top(_traceback("finlib", "np.pmt(0.1, 10, 100)", "RuntimeError: In accordance with NEP 32, the function pmt was removed "
                          "from NumPy version 1.20.  A replacement for this function is available in the numpy_financial library: "
                          "https://pypi.org/project/numpy-financial"))
    assert top["id"] == "DRV-package" and top["kind"] == "numpy-too-new"


# A module whose names come through a module __getattr__ (huggingface_hub's lazy exports): the failed import shows the
# installed release does not provide the name, so a name bound only up to some release is read as the package being
# newer than the caller, as for a module without __getattr__.
def test_lazy_export_module_name_removed_is_too_new():
    from ascendrl.catalog.analyzers.apihistory import name_history

    history = name_history("huggingface-hub", "huggingface_hub", "cached_download")
    assert history is not None and history.direction == "too-new" and "huggingface-hub<0.26" in history.fix
    top = _top("Traceback (most recent call last):\n"
               '  File "/home/user/app/run.py", line 8, in <module>\n'
               "    from huggingface_hub import cached_download\n"
               "ImportError: cannot import name 'cached_download' from 'huggingface_hub'\n")
    assert top["id"] == "DRV-package" and top["kind"] == "huggingface-hub-too-new"
    # a name the lazy module never bound stays without a release claim
    assert name_history("huggingface_hub", "huggingface_hub", "no_such_name_at_all") is None
    assert name_history("huggingface-hub", "huggingface_hub", "no_such_name_at_all") is None


# A keyword, name or submodule that came and went (accelerate's Accelerator(dispatch_batches=): 0.5 to 0.34) is read by
# the release the log shows: at or above the one that dropped it is too new, below the one that added it too old; with
# no release shown the table claims neither.
def test_came_and_went_keyword_is_read_by_the_installed_release():
    from ascendrl.catalog.analyzers.apihistory import param_history

    # with no release in the log, k44compat reads it by the release dates: the 0.5 line that brought it is three years
    # older than the 1.0 line that dropped it, so too new (test_generalise_k44compat)
    dated = param_history("accelerate", "Accelerator.__init__", "dispatch_batches")
    assert dated is not None and dated.direction == "too-new" and "PyPI upload dates" in dated.sentence
    newer = param_history("accelerate", "Accelerator.__init__", "dispatch_batches", "1.2.1")
    assert newer is not None and newer.direction == "too-new" and "accelerate<1.0" in newer.fix
    older = param_history("accelerate", "Accelerator.__init__", "dispatch_batches", "0.3.0")
    assert older is not None and older.direction == "too-old"
    # inside the range: the release is not what refused it
    assert param_history("accelerate", "Accelerator.__init__", "dispatch_batches", "0.20.3") is None


def test_pasted_pip_versions_decide_the_keyword_side():
    top = _top("accelerate                1.2.1\n"
               "transformers              4.40.0\n"
               "Traceback (most recent call last):\n"
               '  File "/home/user/LLaVA-NeXT/llava/train/llava_trainer.py", line 251, in create_accelerator_and_postprocess\n'
               "    self.accelerator = Accelerator(\n"
               "TypeError: Accelerator.__init__() got an unexpected keyword argument 'dispatch_batches'\n")
    assert top["id"] == "DRV-package" and top["kind"] == "accelerate-too-new"


def test_pip_lines_of_the_history_packages_are_read():
    from ascendrl.catalog.logversions import versions_in

    assert versions_in("huggingface-hub           0.26.2") == [("huggingface_hub", "0.26.2")]
    assert versions_in("numpy==2.0.1") == [("numpy", "2.0.1")]
    assert versions_in("trl                       0.14.0") == [("trl", "0.14.0")]
    # a name that only contains one of them is not read
    assert versions_in("mytrl                     0.14.0") == []
