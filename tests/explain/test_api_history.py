"""Lead, 2026-12-05 ninth stop: a failed import says which side is behind, from the releases' own wheels.

"cannot import name 'X' from 'M'" names no direction. catalog/data/api_history.json (tools/build_api_history.py, from
the PyPI wheels of the newest release of each minor line) says in which releases M binds X, so the answer names the
installed package as older or newer than the caller, or says the release is not the cause.
"""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import pytest

from ascendrl.catalog import load_catalog
from ascendrl.catalog.analyzers.apihistory import _table, module_history, name_history, param_history

from kdata_helpers import classify

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog()


def _builder():
    spec = importlib.util.spec_from_file_location("build_api_history", ROOT / "tools" / "build_api_history.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _top(text: str):
    result = classify(CATALOG, text)
    assert result.diagnoses, text
    return result.diagnoses[0]


# -- the builder's reading of a wheel ---------------------------------------------------------------------------------

def _wheel(path: Path, files: dict[str, str]) -> str:
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return str(path)


def test_builder_reads_what_a_module_binds_at_import(tmp_path):
    b = _builder()
    wheel = _wheel(tmp_path / "pkg-1.0-py3-none-any.whl", {
        # transformers 5's layout: the package __init__ star-imports its submodules under TYPE_CHECKING and is lazy
        "pkg/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .models import *\n"
                           "else:\n    _import_structure = {'utils': ['helper']}\n    sys.modules[__name__] = _LazyModule()\n",
        "pkg/models/__init__.py": "from .llama import *\n",
        "pkg/models/llama.py": "__all__ = ['LlamaModel']\nclass LlamaModel: pass\nclass _Private: pass\ndef build(): pass\n",
        "pkg/utils.py": "import torch\nfrom typing import Any\ntry:\n    from .models.llama import build as helper_path\n"
                        "except ImportError:\n    helper_path = None\ndef helper(): pass\n",
        "pkg/ext.py": "from numpy import *\n",
        "pkg/broken.py": "def f(:\n",
    })
    version, rows = b.index_wheel(("1.0", wheel, "pkg"))
    modules = {m: row["names"] for m, row in rows.items()}
    assert version == "1.0"
    assert "LlamaModel" in modules["pkg"] and "build" not in modules["pkg"]  # __all__ limits what * brings
    assert "helper" in modules["pkg"]  # the lazy structure's listed names
    assert "LlamaModel" in modules["pkg.models"]
    assert {"helper", "helper_path"} <= set(modules["pkg.utils"])  # bound in both try branches
    assert not {"torch", "Any"} & set(modules["pkg.utils"])  # another package's names are not this one's history
    assert "*" in modules["pkg.ext"]  # another package's star import: its names are not known
    assert modules["pkg.broken"] == []
    assert rows["pkg.models.llama"]["params"] == {"build": []}  # classes without __init__ or @dataclass: not recorded


def test_history_keeps_ranges_only_for_names_that_change():
    b = _builder()
    params = [{"f": ["x"]}, {"f": ["x", "y"]}, {"f": ["x", "y", "**"]}]
    per_version = {v: {"m": {"names": names, "params": p}} for v, names, p in
                   zip(("1.0", "1.1", "1.2"), (["a", "old"], ["a", "old", "new"], ["a", "new"]), params)}
    h = b.history(["1.0", "1.1", "1.2"], per_version)
    row = h["modules"]["m"]
    assert row["always"] == ["a"]
    assert row["names"] == {"new": [[1, 2]], "old": [[0, 1]]}
    assert row["in"] == [[0, 2]]
    # x is taken whenever f exists: not kept; y arrived in 1.1; "**" is kept whenever a parameter changed
    assert row["params"] == {"f": {"defined": [[0, 2]], "y": [[1, 2]], "**": [[2, 2]]}}


def test_builder_reads_parameters_of_functions_classes_and_dataclasses():
    b = _builder()
    import ast
    body = ast.parse("def f(a, b=1, *args, c, **kw): pass\n"
                     "class C:\n    def __init__(self, x, y=2): pass\n"
                     "@dataclasses.dataclass\nclass D(Base):\n    p: int = 1\n    q: ClassVar[int] = 2\n"
                     "@dataclass\nclass E:\n    r: str = ''\n").body
    assert b.parameters(body) == {"f": ["a", "b", "c", "**"], "C": ["x", "y"], "D": ["p", "^"], "E": ["r"]}


# -- the shipped table ------------------------------------------------------------------------------------------------

def test_shipped_table_covers_the_stack_packages_with_their_sources():
    table = _table()
    for pip in ("transformers", "vllm", "peft", "accelerate", "trl", "huggingface-hub", "datasets"):
        assert pip in table, pip
        assert len(table[pip]["versions"]) >= 5, pip
    raw = json.loads((ROOT / "catalog" / "data" / "api_history.json").read_text())
    assert all(p["source"].startswith("PyPI wheels of ") for p in raw["packages"].values())


def test_qwen2_5_vl_arrived_with_transformers_4_49():
    # the wheels: transformers 4.48.3's top level lacks it, 4.49.0's lists it (the release that added Qwen2.5-VL)
    h = name_history("transformers", "transformers", "Qwen2_5_VLForConditionalGeneration")
    assert h is not None and h.direction == "too-old"
    assert "4.49" in h.sentence and "transformers>=4.49" in h.fix


def test_a_name_every_release_has_is_not_called_a_version_problem():
    h = name_history("transformers", "transformers", "PreTrainedModel")
    assert h is not None and h.direction == "always" and "4.30.2 to 5.25.0" in h.sentence


def test_installed_release_inside_the_range_is_not_the_cause():
    h = name_history("transformers", "transformers", "Qwen2_5_VLForConditionalGeneration", installed="4.51.3")
    assert h is not None and h.direction == "always" and "4.51.3" in h.sentence


def test_unknown_module_or_package_says_nothing():
    assert name_history("transformers", "transformers.no_such_module", "X") is None
    assert name_history("no-such-package", "no_such_package", "X") is None


# -- in the answer ----------------------------------------------------------------------------------------------------

def test_a_name_a_newer_transformers_added_is_an_old_transformers():
    # the line as users paste it (vllm-ascend / verl threads with Qwen2.5-VL under transformers 4.4x)
    top = _top("ImportError: cannot import name 'Qwen2_5_VLForConditionalGeneration' from 'transformers' "
               "(/usr/local/lib/python3.10/site-packages/transformers/__init__.py)\n")
    assert top.entry.id == "DRV-package"
    assert top.kind == "transformers-too-old"
    assert "is the first release whose transformers has Qwen2_5_VLForConditionalGeneration" in top.entry.cause
    assert any("transformers>=4.49" in f for f in top.entry.fix)


def test_a_name_a_newer_transformers_removed_is_a_new_transformers():
    # the wheels: transformers 4.46.3's modeling_utils defines shard_checkpoint, 4.47.1's does not (LLaMA-Factory's
    # older releases import it, as users pasted)
    top = _top("Traceback (most recent call last):\n"
               '  File "/home/user/LLaMA-Factory/src/llamafactory/train/tuner.py", line 20, in <module>\n'
               "    from transformers.modeling_utils import shard_checkpoint\n"
               "ImportError: cannot import name 'shard_checkpoint' from 'transformers.modeling_utils' "
               "(/home/user/.local/lib/python3.10/site-packages/transformers/modeling_utils.py)\n")
    assert top.kind == "transformers-too-new"
    assert "is the last release whose transformers.modeling_utils has shard_checkpoint" in top.entry.cause
    assert any("transformers<4.4" in f for f in top.entry.fix)


def test_a_circular_import_is_not_read_as_a_release():
    top = _top("ImportError: cannot import name 'Qwen2_5_VLForConditionalGeneration' from partially initialized module "
               "'transformers' (most likely due to a circular import) (/home/user/transformers/__init__.py)\n")
    assert "is the first release whose" not in top.entry.cause


@pytest.mark.parametrize("line", [
    "AttributeError: module 'transformers' has no attribute 'Qwen2_5_VLForConditionalGeneration'\n",
])
def test_a_missing_module_attribute_reads_the_same_history(line):
    top = _top(line)
    assert top.kind == "transformers-too-old"


def test_a_submodule_a_newer_vllm_added_is_an_old_vllm():
    # vLLM split vllm/config.py into a package; config/lora.py is in the wheels from the 0.10 line's newest release on
    top = _top("ModuleNotFoundError: No module named 'vllm.config.lora'\n")
    assert top.kind == "vllm-too-old"
    assert "is the first release that has vllm.config.lora" in top.entry.cause


def test_a_submodule_transformers_5_dropped_is_a_new_transformers():
    # transformers 5 removed the TensorFlow and Flax modeling code (its modeling_tf_utils is in no 5.x wheel)
    h = module_history("transformers", "transformers.modeling_tf_utils")
    assert h is not None and h.direction == "too-new" and "transformers<5.0" in h.fix


def test_a_submodule_every_release_has_says_nothing():
    assert module_history("transformers", "transformers.models.llama") is None


def test_a_keyword_a_release_dropped_is_a_new_release():
    # vLLM's EngineArgs lost worker_use_ray in the 0.7 line (OpenRLHF#702 passed it to a newer vLLM)
    h = param_history("vllm", "EngineArgs.__init__", "worker_use_ray")
    assert h is not None and h.direction == "too-new" and "vllm<0.7" in h.fix


def test_a_keyword_a_release_added_is_an_old_release():
    h = param_history("trl", "GRPOConfig.__init__", "top_p")
    assert h is not None and h.direction == "too-old" and "trl>=0.16" in h.fix
    # the log's own trl takes it: the table is not about this call
    assert param_history("trl", "GRPOConfig.__init__", "top_p", installed="0.20.0") is None


def test_a_keyword_every_release_takes_says_nothing():
    assert param_history("vllm", "EngineArgs.__init__", "model") is None
    assert param_history("vllm", "EngineArgs.from_cli_args", "x") is None  # a method other than __init__: not read
