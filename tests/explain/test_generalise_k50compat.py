"""Readings added by helper k50compat (2026-12-06) while probing public threads of package / version pairs, installs
and builds for failure classes explain did not name or did not date. Each test input is a short excerpt around the
exact emitted message; each class also has a near miss (similar words, another failure).

- API history (catalog/data/api_history.json, tools/build_api_history.py) extended with tensordict, protobuf (its
  modules live under google.protobuf) and typing-extensions, read from their PyPI wheels: "cannot import name X from
  tensordict / google.protobuf / typing_extensions" is now dated to the release that added or dropped X. A submodule
  counts as a name its package provides ("from google.protobuf import runtime_version": protobuf 5.27+).
- DRV-package names protobuf, not the "google" namespace, in its title and cause.
- DRV-package: torch._six, removed in torch 2.0 (pytorch#94709), read as a removed submodule the caller (old DeepSpeed,
  apex, model repos) still imports.
- ARL-E5000: "cannot import name 'packaging' from 'pkg_resources'" (setuptools 70.0-70.3 under torch <= 2.3's
  cpp_extension and other callers).
- ARL-E5001: protobuf 6.30 removed MessageFactory / SymbolDatabase.GetPrototype.
- ARL-E5002 / ARL-E5003: httpx 0.28 removed proxies= (openai < 1.55.3) / httpx < 0.26 has no proxy=.
- ARL-E5004: pyarrow 21 removed PyExtensionType (datasets <= 2.14.6 subclasses it at import).
- ARL-E5005: Pillow 10 removed Image.ANTIALIAS / LINEAR / CUBIC and the text size methods.
- ARL-E5009 / ARL-E5010: Jinja2 3.1 removed jinja2.escape / Markup (Flask 1.x); Werkzeug 3.0 removed
  werkzeug.urls.url_quote (Flask <= 2.2) and 2.1 safe_str_cmp.
- ARL-E5008: SciPy 1.13 removed scipy.linalg.tri / tril / triu (gensim <= 4.3.2).
- ARL-E5007: Jinja2 2.x under MarkupSafe >= 2.1 (soft_unicode removed).
- ARL-E5006: protobuf 5.26 renamed json_format's including_default_value_fields (MessageToJson / MessageToDict).
- ARL-E1692 widened: torch/_dynamo/eval_frame.py's "Python 3.12+ / 3.13+ not yet supported for torch.compile".
- ARL-E4281 widened: numba's C extension failing under a NumPy its version check let through ("SystemError:
  initialization of _internal failed without raising an exception", numba 0.56 on NumPy 1.24 / 1.25).
- ARL-E270 widened: uv's report of a requirement's dependency pin against another requirement ("... we can conclude
  that you require P. And because you require P', ... unsatisfiable"), also wrapped before "you require P.".
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = "Traceback (most recent call last):\n  File \"/home/user/verl/verl/trainer/main_ppo.py\", line 3, in <module>\n"


# API history: tensordict, protobuf, typing-extensions -------------------------------------------------------------

def test_tensordict_name_is_dated():
    d = _top(TB + "ImportError: cannot import name 'NonTensorStack' from 'tensordict' "
             "(/usr/local/lib/python3.10/site-packages/tensordict/__init__.py)\n")
    assert d.entry.id == "DRV-package" and d.kind == "tensordict-too-old", d.kind
    d = _top(TB + "ImportError: cannot import name 'MemmapTensor' from 'tensordict' "
             "(/usr/local/lib/python3.10/site-packages/tensordict/__init__.py)\n")
    assert d.entry.id == "DRV-package" and d.kind == "tensordict-too-new", d.kind


def test_protobuf_names_are_dated_and_named_protobuf():
    d = _top(TB + "ImportError: cannot import name 'runtime_version' from 'google.protobuf' "
             "(/usr/local/lib/python3.10/site-packages/google/protobuf/__init__.py)\n")
    assert d.entry.id == "DRV-package" and d.kind == "protobuf-too-old", d.kind
    assert "protobuf" in d.entry.title and "google versions" not in d.entry.title, d.entry.title
    d = _top(TB + "ImportError: cannot import name 'builder' from 'google.protobuf.internal' "
             "(/usr/local/lib/python3.10/site-packages/google/protobuf/internal/__init__.py)\n")
    assert d.kind == "protobuf-too-old", d.kind
    d = _top(TB + "AttributeError: module 'google.protobuf.message_factory' has no attribute 'GetMessageClass'. "
             "Did you mean: 'GetMessages'?\n")
    assert d.kind == "protobuf-too-old", d.kind


def test_typing_extensions_names_are_dated():
    for name in ("TypeIs", "deprecated", "override"):
        d = _top(TB + f"ImportError: cannot import name '{name}' from 'typing_extensions' "
                 "(/usr/local/lib/python3.10/site-packages/typing_extensions.py)\n")
        assert d.entry.id == "DRV-package" and d.kind == "typing-extensions-too-old", (name, d.kind)


def test_name_no_release_has_is_not_dated():
    # a name no typing_extensions release binds: no direction is claimed
    d = _top(TB + "ImportError: cannot import name 'NoSuchThing' from 'typing_extensions' "
             "(/usr/local/lib/python3.10/site-packages/typing_extensions.py)\n")
    assert d is None or not d.kind.startswith("typing-extensions-too"), d.kind


# torch._six ---------------------------------------------------------------------------------------------------------

def test_torch_six_is_a_removed_submodule():
    text = ("Traceback (most recent call last):\n"
            "  File \"/home/user/venv/lib/python3.10/site-packages/deepspeed/runtime/utils.py\", line 18, in <module>\n"
            "    from torch._six import inf\n"
            "ModuleNotFoundError: No module named 'torch._six'\n")
    d = _top(text)
    assert d.entry.id == "DRV-package" and "torch 2.0.0" in d.entry.title and "deepspeed" in d.entry.title, d.entry.title


def test_other_torch_submodule_is_not_read_as_removed():
    d = _top(TB + "ModuleNotFoundError: No module named 'torch._sixteen'\n")
    assert d is None or "gone from torch" not in d.entry.title


# ARL-E5000 ----------------------------------------------------------------------------------------------------------

def test_pkg_resources_packaging_is_e5000():
    for text in (
        "  File \"/opt/conda/lib/python3.8/site-packages/torch/utils/cpp_extension.py\", line 25, in <module>\n"
        "    from pkg_resources import packaging  # type: ignore[attr-defined]\n"
        "ImportError: cannot import name 'packaging' from 'pkg_resources' "
        "(/opt/conda/lib/python3.8/site-packages/pkg_resources/__init__.py)\n",
        TB + "ImportError: cannot import name 'packaging' from 'pkg_resources'\n",
    ):
        assert _id(text) == "ARL-E5000", text


def test_other_pkg_resources_import_is_not_e5000():
    assert _id(TB + "ImportError: cannot import name 'parse_version' from 'pkg_resources'\n") != "ARL-E5000"
    assert _id(TB + "ModuleNotFoundError: No module named 'pkg_resources'\n") != "ARL-E5000"


# ARL-E5001 ----------------------------------------------------------------------------------------------------------

def test_protobuf6_get_prototype_is_e5001():
    for text in (
        TB + "AttributeError: 'MessageFactory' object has no attribute 'GetPrototype'\n",
        TB + "AttributeError: 'SymbolDatabase' object has no attribute 'GetPrototype'\n",
    ):
        assert _id(text) == "ARL-E5001", text


def test_descriptor_refusal_is_not_e5001():
    assert _id(TB + "TypeError: Descriptors cannot be created directly.\n") != "ARL-E5001"
    assert _id(TB + "AttributeError: 'MessageFactory' object has no attribute 'GetMessageClass'\n") != "ARL-E5001"


# ARL-E5002 / ARL-E5003 ----------------------------------------------------------------------------------------------

def test_httpx_proxies_removed_is_e5002():
    for cls in ("AsyncClient", "Client"):
        text = ("  File \"/home/user/.local/lib/python3.11/site-packages/openai/_base_client.py\", line 1290, in __init__\n"
                "    super().__init__(**kwargs)\n"
                f"TypeError: {cls}.__init__() got an unexpected keyword argument 'proxies'\n")
        assert _id(text) == "ARL-E5002", text


def test_httpx_proxy_missing_is_e5003():
    assert _id(TB + "TypeError: AsyncClient.__init__() got an unexpected keyword argument 'proxy'\n") == "ARL-E5003"


def test_other_proxies_keyword_is_not_e5002():
    # requests.get's own keyword, misspelt: not httpx's removed argument
    text = TB + "TypeError: Session.request() got an unexpected keyword argument 'proxie'\n"
    assert _id(text) not in ("ARL-E5002", "ARL-E5003")
    text = TB + "TypeError: OpenAI.__init__() got an unexpected keyword argument 'proxies'\n"
    assert _id(text) not in ("ARL-E5002", "ARL-E5003")


# ARL-E5004 ----------------------------------------------------------------------------------------------------------

def test_pyarrow_py_extension_type_is_e5004():
    for text in (
        "  File \"/usr/local/lib/python3.10/site-packages/datasets/features/features.py\", line 634, in <module>\n"
        "    class _ArrayXDExtensionType(pa.PyExtensionType):\n"
        "AttributeError: module 'pyarrow' has no attribute 'PyExtensionType'\n",
        TB + "AttributeError: module 'pyarrow' has no attribute 'PyExtensionType'. Did you mean: 'ExtensionType'?\n",
    ):
        assert _id(text) == "ARL-E5004", text


def test_other_pyarrow_attribute_is_not_e5004():
    assert _id(TB + "AttributeError: module 'pyarrow' has no attribute 'ExtensionType'\n") != "ARL-E5004"


# ARL-E5005 ----------------------------------------------------------------------------------------------------------

def test_pillow10_removals_are_e5005():
    for text in (
        TB + "AttributeError: module 'PIL.Image' has no attribute 'ANTIALIAS'\n",
        TB + "AttributeError: module 'PIL.Image' has no attribute 'LINEAR'\n",
        TB + "ImportError: cannot import name 'ANTIALIAS' from 'PIL.Image' (/usr/lib/python3/dist-packages/PIL/Image.py)\n",
        TB + "AttributeError: 'ImageDraw' object has no attribute 'textsize'\n",
        TB + "AttributeError: 'FreeTypeFont' object has no attribute 'getsize'\n",
    ):
        assert _id(text) == "ARL-E5005", text


def test_other_pil_attribute_is_not_e5005():
    assert _id(TB + "AttributeError: module 'PIL.Image' has no attribute 'Resampling'\n") != "ARL-E5005"
    assert _id(TB + "AttributeError: 'ImageDraw' object has no attribute 'textbbox'\n") != "ARL-E5005"


# ARL-E5006 ----------------------------------------------------------------------------------------------------------

def test_json_format_keyword_rename_is_e5006():
    for fn in ("MessageToDict", "MessageToJson"):
        text = TB + f"TypeError: {fn}() got an unexpected keyword argument 'including_default_value_fields'\n"
        assert _id(text) == "ARL-E5006", text


def test_other_json_format_keyword_is_not_e5006():
    text = TB + "TypeError: MessageToDict() got an unexpected keyword argument 'preserving_proto_field_names'\n"
    assert _id(text) != "ARL-E5006"


# ARL-E1692 widened ---------------------------------------------------------------------------------------------------

def test_eval_frame_python_wording_is_e1692():
    for v in ("3.12", "3.13"):
        assert _id(TB + f"RuntimeError: Python {v}+ not yet supported for torch.compile\n") == "ARL-E1692", v


def test_windows_compile_is_not_e1692():
    assert _id(TB + "RuntimeError: Windows not yet supported for torch.compile\n") != "ARL-E1692"


# ARL-E4281 widened ---------------------------------------------------------------------------------------------------

def test_numba_internal_init_is_e4281():
    text = ("  File \"/usr/local/lib/python3.9/site-packages/numba/np/ufunc/decorators.py\", line 3, in <module>\n"
            "    from numba.np.ufunc import _internal\n"
            "SystemError: initialization of _internal failed without raising an exception\n")
    assert _id(text) == "ARL-E4281"


def test_other_module_init_failure_is_not_e4281():
    text = TB + "SystemError: initialization of _multiarray_umath failed without raising an exception\n"
    assert _id(text) != "ARL-E4281"


# ARL-E270 widened ---------------------------------------------------------------------------------------------------

def test_uv_derived_requirement_conflict_is_e270():
    for text in (
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because vllm==0.8.5 depends on torch==2.6.0 and you require vllm==0.8.5, we can conclude that you require torch==2.6.0.\n"
        "      And because you require torch==2.5.1, we can conclude that your requirements are unsatisfiable.\n",
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because nerfstudio==1.1.0 depends on pillow>=10.3.0 and you require nerfstudio==1.1.0, we can conclude that\n"
        "      you require pillow>=10.3.0.\n"
        "      And because you require pillow<10, we can conclude that your requirements are unsatisfiable.\n",
    ):
        assert _id(text) == "ARL-E270", text


def test_uv_python_or_missing_version_is_not_e270():
    text = ("  × No solution found when resolving dependencies:\n"
            "  ╰─▶ Because there is no version of torch-npu==2.6.0rc1 and you require torch-npu==2.6.0rc1, we can conclude "
            "that your requirements are unsatisfiable.\n")
    assert _id(text) != "ARL-E270"
    text = ("  × No solution found when resolving dependencies:\n"
            "  ╰─▶ Because the current Python version (3.8.10) does not satisfy Python>=3.9 and verl==0.4.0 depends on "
            "Python>=3.9, we can conclude that verl==0.4.0 cannot be used.\n"
            "      And because you require verl==0.4.0, we can conclude that your requirements are unsatisfiable.\n")
    assert _id(text) != "ARL-E270"


# ARL-E5007 ----------------------------------------------------------------------------------------------------------

def test_markupsafe_soft_unicode_is_e5007():
    text = ("  File \"/usr/local/lib/python3.9/site-packages/jinja2/filters.py\", line 13, in <module>\n"
            "    from markupsafe import soft_unicode\n"
            "ImportError: cannot import name 'soft_unicode' from 'markupsafe' "
            "(/usr/local/lib/python3.9/site-packages/markupsafe/__init__.py)\n")
    assert _id(text) == "ARL-E5007"


def test_other_markupsafe_name_is_not_e5007():
    assert _id(TB + "ImportError: cannot import name 'soft_str' from 'markupsafe'\n") != "ARL-E5007"


# ARL-E5008 ----------------------------------------------------------------------------------------------------------

def test_scipy113_triu_is_e5008():
    for text in (
        "  File \"/usr/local/lib/python3.11/site-packages/gensim/matutils.py\", line 20, in <module>\n"
        "    from scipy.linalg import get_blas_funcs, triu\n"
        "ImportError: cannot import name 'triu' from 'scipy.linalg' "
        "(/usr/local/lib/python3.11/site-packages/scipy/linalg/__init__.py)\n",
        TB + "AttributeError: module 'scipy.linalg' has no attribute 'tril'\n",
    ):
        assert _id(text) == "ARL-E5008", text


def test_other_scipy_linalg_name_is_not_e5008():
    assert _id(TB + "ImportError: cannot import name 'triu_indices' from 'scipy.linalg'\n") != "ARL-E5008"


# ARL-E5009 / ARL-E5010 ----------------------------------------------------------------------------------------------

def test_jinja31_escape_is_e5009():
    for name in ("escape", "Markup"):
        text = ("  File \"/usr/local/lib/python3.9/site-packages/flask/__init__.py\", line 14, in <module>\n"
                f"    from jinja2 import {name}\n"
                f"ImportError: cannot import name '{name}' from 'jinja2' (/usr/local/lib/python3.9/site-packages/jinja2/__init__.py)\n")
        assert _id(text) == "ARL-E5009", text


def test_werkzeug_removals_are_e5010():
    for text in (
        TB + "ImportError: cannot import name 'url_quote' from 'werkzeug.urls' "
        "(/usr/local/lib/python3.12/site-packages/werkzeug/urls.py). Did you mean: 'unquote'?\n",
        TB + "ImportError: cannot import name 'safe_str_cmp' from 'werkzeug.security' "
        "(/usr/local/lib/python3.10/site-packages/werkzeug/security.py)\n",
    ):
        assert _id(text) == "ARL-E5010", text


def test_other_pallets_names_are_not_e5009_e5010():
    assert _id(TB + "ImportError: cannot import name 'Environment' from 'jinja2'\n") not in ("ARL-E5009", "ARL-E5010")
    assert _id(TB + "ImportError: cannot import name 'quote' from 'werkzeug.urls'\n") not in ("ARL-E5009", "ARL-E5010")
