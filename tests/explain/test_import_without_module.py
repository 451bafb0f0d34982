"""A failed import quoted without its "from 'M'" still names its package (stop 19, lead).

People quote "cannot import name 'cached_download'" (h2oai/h2ogpt#1895, a round 48 dev log) or put it in backticks
after "The error was:". Python always prints the module; the quote drops it. Where exactly one package of the API
history (catalog/data/api_history.json) ever bound the name at its top level, that package is the module, and its
history says the direction (huggingface_hub dropped cached_download in 0.26; split_torch_state_dict_into_shards arrived
in 0.23).
"""

from __future__ import annotations

import pytest

from ascendrl.catalog.analyzers.apihistory import top_level_owner


@pytest.mark.parametrize("paste, kind", [
    ("The error was: ```cannot import name 'cached_download'```\n", "huggingface-hub-too-new"),
    ("ImportError: cannot import name 'cached_download'\n", "huggingface-hub-too-new"),
    ("ImportError: cannot import name 'split_torch_state_dict_into_shards'\n", "huggingface-hub-too-old"),
])
def test_the_one_package_that_had_the_name_is_named_with_its_direction(explain_text, paste, kind):
    result, top = explain_text(paste)
    assert result.unknown is None and top is not None and top.entry.id == "DRV-package" and top.kind == kind


def test_a_name_no_package_had_or_several_had_names_none():
    assert top_level_owner("foo_bar_baz") is None
    assert top_level_owner("__version__") is None  # every package binds it: no one owner
    assert top_level_owner("cached_download") == ("huggingface-hub", "huggingface_hub")


def test_a_name_quoted_with_its_module_keeps_that_module(explain_text):
    _, top = explain_text("ImportError: cannot import name 'cached_download' from 'my_utils' (/srv/app/my_utils.py)\n")
    assert top is None or top.kind != "huggingface-hub-too-new"
