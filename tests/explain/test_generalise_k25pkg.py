"""Package-pair readings that need no catalog entry of the thread (k25pkg).

1. A traceback cut off inside a version check (no exception line): transformers' ``require_version`` /
   ``require_version_core`` / ``_compare_versions`` (utils/versions.py), the import-time check of
   dependency_versions_check.py and LLaMA-Factory's ``check_dependencies`` / ``check_version`` (extras/misc.py) can
   only raise because an installed dependency is outside the pinned range, so the cut paste is read as a package
   mismatch. The paste is LlamaFactory#7827's.
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog


def _top(text: str) -> dict:
    classifier = Classifier(load_catalog())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    data = classifier.result().to_json()
    return (data.get("diagnoses") or [{}])[0]


# source: https://github.com/hiyouga/LlamaFactory/issues/7827 (the paste ends at the check's frame)
CUT_CHECK = """Traceback (most recent call last):
  File "/envs/llama_factory/bin/llamafactory-cli", line 8, in <module>
    sys.exit(main())
  File "/data/LLaMA-Factory/src/llamafactory/cli.py", line 39, in main
    from . import launcher
  File "/data/LLaMA-Factory/src/llamafactory/hparams/parser.py", line 47, in <module>
    check_dependencies()
  File "/data/LLaMA-Factory/src/llamafactory/extras/misc.py", line 92, in check_dependencies
"""


def test_a_traceback_cut_inside_a_version_check_is_a_package_mismatch():
    top = _top(CUT_CHECK)
    assert top.get("id") == "DRV-package"
    assert top.get("kind") == "package-mismatch"
    assert "check_dependencies" in top.get("title", "")


def test_a_cut_inside_transformers_require_version_is_read_the_same():
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.10/site-packages/transformers/dependency_versions_check.py", line 41, in <module>\n'
            "    require_version_core(deps[pkg])\n"
            '  File "/opt/conda/lib/python3.10/site-packages/transformers/utils/versions.py", line 111, in require_version\n')
    top = _top(text)
    assert top.get("kind") == "package-mismatch" and "require_version" in top.get("title", "")


def test_a_cut_inside_another_function_is_not_a_version_check():
    text = CUT_CHECK.replace("extras/misc.py\", line 92, in check_dependencies", "extras/misc.py\", line 120, in count_parameters")
    assert "version check" not in _top(text).get("title", "")
