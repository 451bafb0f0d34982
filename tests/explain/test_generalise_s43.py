"""Lead, twelfth stop (2026-12-05): EACCES from a socket bind is a port's permission, not a path's.

DRV-oserror read every "Permission denied" as a path the user may not write. A bind refused with EACCES names a port:
below 1024 the port is privileged (ip(7): root or CAP_NET_BIND_SERVICE), above it a policy forbids the bind.
"""

from __future__ import annotations

import pytest

from ascendrl.catalog import load_catalog
from kdata_helpers import classify

CATALOG = load_catalog()


def _diagnoses(text: str) -> list[dict]:
    result = classify(CATALOG, text, "paste.log")
    return result.to_json().get("diagnoses") or []


def _top(text: str) -> dict:
    diagnoses = _diagnoses(text)
    assert diagnoses, text
    return diagnoses[0]


@pytest.mark.parametrize(("line", "port"), [
    # torch c10d's TCPStore server (torch/csrc/distributed/c10d/socket.cpp: "failed to bind to {} {}." with the errno)
    ("RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed "
     "to bind to [::]:443 (errno: 13 - Permission denied). The server socket has failed to bind to 0.0.0.0:443 "
     "(errno: 13 - Permission denied).", "443"),
    # asyncio's create_server (Lib/asyncio/base_events.py), as uvicorn raises it
    ("PermissionError: [Errno 13] error while attempting to bind on address ('127.0.0.1', 8): permission denied", "8"),
])
def test_a_privileged_port_bind_is_named_with_its_port(line, port):
    top = _top(line)
    assert (top["id"], top["kind"]) == ("DRV-oserror", "privileged-port-bind-denied")
    assert f"port {port}" in top["title"]


def test_an_unprivileged_port_refused_is_a_policy_not_a_privileged_port():
    top = _top("RuntimeError: The server socket has failed to listen on any local network address. The server socket has "
               "failed to bind to 0.0.0.0:29500 (errno: 13 - Permission denied).")
    assert (top["id"], top["kind"]) == ("DRV-oserror", "port-bind-denied")
    assert "privileged" not in top["title"]


def test_a_path_refused_stays_a_path():
    top = _top("PermissionError: [Errno 13] Permission denied: '/data/checkpoints/global_step_10'")
    assert top["kind"] == "eacces" and "port" not in top["title"]


# transformers 5.0 dropped the attributes every configuration had by default in 4.x (class_owners.yaml,
# config_attributes_dropped_in_5, read from configuration_utils.py of 4.57.1 and 5.0.0).
REMOTE_CONFIG = """\
Traceback (most recent call last):
  File "/home/user/.cache/huggingface/modules/transformers_modules/dnabert2/bert_layers.py", line 560, in __init__
    self.pad_token_id = config.pad_token_id
AttributeError: 'BertConfig' object has no attribute 'pad_token_id'
"""


def test_a_config_attribute_dropped_in_5_reads_transformers_too_new():
    top = _top(REMOTE_CONFIG)
    assert (top["id"], top["kind"]) == ("DRV-package", "transformers-too-new")
    assert "remote code" in top["cause"]


def test_a_4x_transformers_in_the_log_is_not_the_5_0_change():
    diagnoses = _diagnoses("transformers==4.46.3\n" + REMOTE_CONFIG)
    assert not any(d.get("kind") == "transformers-too-new" and d.get("id") == "DRV-package" for d in diagnoses), diagnoses


def test_another_packages_config_class_is_left_alone():
    diagnoses = _diagnoses("AttributeError: 'ModelConfig' object has no attribute 'max_length'")
    assert not diagnoses or diagnoses[0].get("kind") != "transformers-too-new"
