"""Entries the lead wrote at the eighteenth stop (2026-12-06, second session) from probing pastes a user would bring.
Each test input is a short excerpt around the exact emitted message; each class also has a near miss.

- DRV-pickle-empty (widened): Python's unpickler at the end of an empty stream ("Ran out of input") is read where the
  raising line loads a file itself (pickle / torch / joblib / dill load) and in a paste with no frames, not only under
  torch's legacy loader; never under multiprocessing, where a child's pipe closed.
- ARL-E4173: SQLite's SQLITE_FULL ("database or disk is full", main.c): the database's disk or SQLite's temp folder
  is full (Optuna / MLflow stores).
- ARL-E4174: json.dump given a value it cannot encode (Lib/json/encoder.py "Object of type X is not JSON serializable":
  a Tensor, a NumPy scalar, a DictConfig); generic, so a chat template's Undefined stays ARL-E4320's.
- (ARL-E4175, written the same hour as helper k50hccl's ARL-E4968 for the same class, was merged into E4968: its
  thread and golden case moved there; the id stays unused.)
- ARL-E153 widened: GatedRepoError's own first line ("401 Client Error."), for a paste cut before its gated-repo line.
- ARL-E4176: vLLM's own list of quantization methods lacks the model's (config.py _verify_quantization "Unknown
  quantization method: X. Must be one of [...]"): a vLLM older than the method, or one that dropped it.
- ARL-E4177: fp16 GradScaler with no gradient on any optimizer parameter (grad_scaler.py "No inf checks were
  recorded for this optimizer."): nothing trains, or the optimizer holds other parameters than the ones that ran.
- ARL-E538 widened: torch._prims_common's "Tensor on device meta is not on the expected device X!"; DRV-tensor-devices
  reads the same check with two real devices (npu:0 / cpu).
- DRV-oserror reads the network errnos a client or server meets when the other side is not there: ECONNREFUSED (111,
  "nothing listens at host:port", with what usually serves that port), EHOSTUNREACH (113) and EADDRNOTAVAIL (99, an
  address this host does not have), in Python's, urllib3's (inside requests' ConnectionError), httpx's and torch c10d's
  wordings; before, a plain ConnectionRefusedError or [Errno 99] gave nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)
_top = functools.partial(first, CATALOG)


def _kind(text):
    found = _top(text)
    return (found.entry.id, found.kind) if found is not None else None


def test_empty_or_cut_pickle_is_read_where_a_load_raised_it():
    for text in (
        "EOFError: Ran out of input\n",
        "Traceback (most recent call last):\n"
        '  File "prepare.py", line 12, in <module>\n'
        "    rows = pickle.load(f)\n"
        "EOFError: Ran out of input\n",
        "Traceback (most recent call last):\n"
        '  File "cache.py", line 8, in restore\n'
        "    return joblib.load(path)\n"
        "EOFError: Ran out of input\n",
        "_pickle.UnpicklingError: pickle data was truncated\n",
    ):
        assert _kind(text) == ("DRV-pickle-empty", "model-weights-corrupt"), text


def test_other_eof_errors_are_not_an_empty_file():
    for text in (
        "Traceback (most recent call last):\n"
        '  File "ask.py", line 3, in <module>\n'
        "    name = input('model? ')\n"
        "EOFError: EOF when reading a line\n",
        # a spawned child whose pipe from the parent closed: the parent's error is the cause
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 126, in _main\n'
        "    self = reduction.pickle.load(from_parent)\n"
        "EOFError: Ran out of input\n",
        # an EOFError from a line that loads nothing
        "Traceback (most recent call last):\n"
        '  File "client.py", line 30, in recv\n'
        "    msg = conn.recv()\n"
        "EOFError: Ran out of input\n",
    ):
        assert _kind(text) is None or _kind(text)[0] != "DRV-pickle-empty", text


def test_sqlite_full_is_e4173():
    for text in (
        "sqlite3.OperationalError: database or disk is full\n",
        "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database or disk is full\n"
        "[SQL: INSERT INTO trial_values (trial_id, objective, value, value_type) VALUES (?, ?, ?, ?)]\n",
        "apsw.FullError: FullError: database or disk is full\n",
    ):
        assert _id(text) == "ARL-E4173", text


def test_other_sqlite_errors_are_not_e4173():
    for text in (
        "sqlite3.DatabaseError: database disk image is malformed\n",
        "sqlite3.OperationalError: database is locked\n",
    ):
        assert _id(text) != "ARL-E4173", text


def test_connection_refused_names_the_endpoint_and_its_usual_server():
    found = _top("requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded "
                 "with url: /v1/completions (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at "
                 "0x7f3c2c1d5e50>: Failed to establish a new connection: [Errno 111] Connection refused'))\n")
    assert (found.entry.id, found.kind) == ("DRV-oserror", "econnrefused")
    assert "localhost:8000" in found.entry.title and "vLLM" in found.entry.title
    # torch c10d's rendezvous client refused: DRV-rendezvous's (k50hccl), not a generic refused connection
    found = _top("torch.distributed.DistNetworkError: The client socket has failed to connect to [10.0.0.1]:29500 "
                 "(errno: 111 - Connection refused).\n")
    assert (found.entry.id, found.kind) == ("DRV-rendezvous", "rendezvous-socket-timeout")
    for text in ("ConnectionRefusedError: [Errno 111] Connection refused\n", "httpx.ConnectError: [Errno 111] Connection refused\n"):
        assert _kind(text) == ("DRV-oserror", "econnrefused"), text


def test_unreachable_host_and_foreign_address():
    assert _kind("OSError: [Errno 113] No route to host\n") == ("DRV-oserror", "ehostunreach")
    found = _top("RuntimeError: The server socket has failed to listen on any local network address. The server socket has "
                 "failed to bind to [10.0.0.5]:29500 (errno: 99 - Cannot assign requested address).\n")
    assert found.kind == "eaddrnotavail" and "10.0.0.5:29500" in found.entry.title
    assert _kind("OSError: [Errno 99] Cannot assign requested address\n") == ("DRV-oserror", "eaddrnotavail")


def test_a_connection_nothing_answered_is_etimedout_not_a_ray_node_start_up():
    # stop 19: ETIMEDOUT had read as a resemblance to Ray's node start-up timeout (ARL-E793), k51data's finding
    assert _kind("TimeoutError: [Errno 110] Connection timed out\n") == ("DRV-oserror", "etimedout")
    found = _top("requests.exceptions.ConnectionError: HTTPConnectionPool(host='10.0.0.5', port=8000): Max retries exceeded "
                 "with url: /v1/completions (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at "
                 "0x7f>: Failed to establish a new connection: [Errno 110] Connection timed out'))\n")
    assert found.kind == "etimedout" and "10.0.0.5:8000" in found.entry.title and "vLLM" in found.entry.title
    assert _kind("TimeoutError: Timed out while waiting for node to startup.\n")[0] == "ARL-E793"  # Ray's own stays Ray's


def test_other_socket_errors_are_not_read_as_refused():
    assert _kind("ConnectionResetError: [Errno 104] Connection reset by peer\n") is None
    retry = ("WARNING:urllib3.connectionpool:Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
             "after connection broken by 'NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f1>: Failed to "
             "establish a new connection: [Errno 111] Connection refused')': /health\n")
    assert _top(retry) is None  # a client waiting for a server to come up: not a failure
    found = _top("RuntimeError: The server socket has failed to listen on any local network address. The server socket has "
                 "failed to bind to [::]:29500 (errno: 98 - Address already in use).\n")
    assert found is not None and found.kind != "eaddrnotavail"


def test_unencodable_json_value_is_e4174_and_a_template_undefined_stays_e4320():
    for text in (
        "TypeError: Object of type Tensor is not JSON serializable\n",
        "TypeError: Object of type 'float32' is not JSON serializable\n",
        "TypeError: Object of type DictConfig is not JSON serializable\n",
    ):
        assert _id(text) == "ARL-E4174", text
    assert _id("TypeError: Object of type Undefined is not JSON serializable\n") == "ARL-E4320"
    assert _id("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n") != "ARL-E4174"


def test_env_rendezvous_without_launcher_is_e4968():
    for var in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        text = (f"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable {var} "
                "expected, but not set\n")
        assert _id(text) == "ARL-E4968", text
    assert _id("ValueError: Error initializing torch.distributed using tcp:// rendezvous: port number missing\n") != "ARL-E4968"
    assert _id("KeyError: 'RANK'\n") != "ARL-E4968"


def test_gated_repo_first_line_is_e153():
    assert _id("huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-6751a2)\n") == "ARL-E153"
    assert _id("huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-6751a2)\n") != "ARL-E153"


def test_vllm_unknown_quantization_method_is_e4176():
    for text in (
        "ValueError: Unknown quantization method: gptq. Must be one of ['awq', 'squeezellm'].\n",
        "ValueError: Unknown quantization method: bitsandbytes. Must be one of ['awq', 'gptq', 'squeezellm', 'marlin'].\n",
    ):
        assert _id(text) == "ARL-E4176", text
    # transformers' own refusal of a quant_method is another entry; vLLM's refusal of a load format is not this one
    assert _id("ValueError: Unknown quantization type, got fp8 - supported types are: ['awq', 'gptq']\n") != "ARL-E4176"
    assert _id("ValueError: Unknown load format: gguf2. Must be one of 'auto', 'pt', 'safetensors', 'npcache', or 'dummy'.\n") != "ARL-E4176"


def test_grad_scaler_without_gradients_is_e4177():
    for text in ("AssertionError: No inf checks were recorded for this optimizer.\n",
                 "AssertionError: No inf checks were recorded prior to update.\n"):
        assert _id(text) == "ARL-E4177", text
    assert _id("RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n") != "ARL-E4177"


def test_prims_device_check_meta_and_mixed():
    assert _id("RuntimeError: Tensor on device meta is not on the expected device npu:0!\n") == "ARL-E538"
    assert _kind("RuntimeError: Tensor on device npu:0 is not on the expected device cpu!\n") == ("DRV-tensor-devices", "cpu-npu-tensor-mix")
    assert _kind("RuntimeError: Tensor on device npu:1 is not on the expected device npu:0!\n") == ("DRV-tensor-devices", "npu-storage-device-mismatch")
