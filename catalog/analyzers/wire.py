"""Three failures whose exception states its mechanism outright, whatever program raised it.

- JSON Lines read as one JSON document: Python's json decoder raises "Extra data: line N column 1 (char M)" when a
  complete value is followed by more text; at column 1 of a later line that is the next record of a .jsonl file
  (cpython Lib/json/decoder.py, JSONDecoder.decode: ``raise JSONDecodeError("Extra data", s, end)``; old releases
  raised ValueError with the same text and a "line A column 1 - line B column 1" range).
- The Hub (or a mirror) answering HTTP 429: requests' raise_for_status words it "429 Client Error: Too Many Requests
  for url: …", and huggingface_hub re-raises it as HfHubHTTPError with that text (utils/_http.py hf_raise_for_status).
- A host name that getaddrinfo cannot resolve: socket.gaierror with EAI_NONAME / EAI_AGAIN ("[Errno -2] Name or
  service not known", "[Errno -3] Temporary failure in name resolution", macOS "[Errno 8] nodename nor servname
  provided, or not known"); vLLM's and torch's get_ip / rendezvous look up the machine's own host name this way.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, lone, raised
from ...lazyre import lazy

EXTRA_DATA = lazy(r"^Extra data: line (\d+) column 1(?: - line \d+ column \d+)? \(char \d+")
RATE_LIMITED = lazy(r"\b429 Client Error: Too Many Requests\b")
HUB = lazy(r"huggingface|hf-mirror|HfHub|/api/(?:models|datasets)/|/resolve/", re.I)
# glibc's gai_strerror texts (and macOS's for EAI_NONAME), which only a failed name lookup prints.
GAI_STRINGS = (r"(Name or service not known|Temporary failure in name resolution|No address associated with hostname|"
               r"nodename nor servname provided, or not known)")
EAI = lazy(r"\[Errno (?:-2|-3|-5|8)\] " + GAI_STRINGS)
# The same texts pasted without the errno, as a lone sentence ("Name or service not known").
GAI_TEXT = lazy(GAI_STRINGS)

JSON_SRC = "https://github.com/python/cpython/blob/v3.13.0/Lib/json/decoder.py"
HUB_HTTP_SRC = "https://github.com/huggingface/huggingface_hub/blob/v1.28.0/src/huggingface_hub/utils/_http.py"
HUB_ENV = "https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables"
GAI_SRC = "https://docs.python.org/3/library/socket.html#socket.gaierror"


class JsonLines(Analyzer):
    id = "DRV-jsonl-as-json"
    title = "A JSON Lines file was parsed as one JSON document"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("JSONDecodeError", "ValueError", "Exception"):
            return None
        m = EXTRA_DATA.match(link.message.strip())
        if m is None or m.group(1) == "1":
            return None  # extra text on the first line is a malformed document, not a second record
        return Finding(
            "A JSON Lines file (one object per line) was read with json.load / json.loads",
            f"{link.short_type}: {link.message[:160]}. The decoder read one complete JSON value and found another starting at "
            "column 1 of a later line: the file holds one record per line (.jsonl), and the code parsed it as a single document.",
            ("Read it line by line: [json.loads(l) for l in open(path) if l.strip()], or pandas.read_json(path, lines=True), or "
             "datasets.load_dataset('json', data_files=path) (which reads JSON Lines)",
             "Or convert the file to one JSON array / to parquet (verl's data.train_files expects parquet) before training"),
            evidence(link), (JSON_SRC,), key="jsonl", family="data-model", kind="jsonl-read-as-json",
        )


class HubRateLimited(Analyzer):
    id = "DRV-hub-429"
    title = "The Hugging Face Hub (or its mirror) rate-limited the client"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        text = " ".join([link.type, link.message, *link.detail])
        if not RATE_LIMITED.search(text) or not (HUB.search(text) or "HTTPError" in link.type):
            return None
        return Finding(
            "The Hugging Face Hub (or the mirror in HF_ENDPOINT) answered 429 Too Many Requests",
            f"{link.short_type}: {link.message[:200]}. The download sent more requests than the endpoint allows (a repo of many "
            "small files, several ranks downloading at once, or anonymous access); the server refused the rest.",
            ("Log in (huggingface-cli login / HF_TOKEN) so the higher authenticated limit applies, and download once on one "
             "process: huggingface-cli download <repo> --local-dir /data/<name> --max-workers 2, then load from that path",
             "Retry after the wait the server states; on a mirror (HF_ENDPOINT) ask less often or use the main endpoint"),
            evidence(link), (HUB_HTTP_SRC, HUB_ENV), key="hub429", family="data-model", kind="hf-hub-rate-limited",
        )


class HostUnresolvable(Analyzer):
    id = "DRV-host-unresolvable"
    title = "A host name cannot be resolved"
    family = "hccl"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("gaierror", "OSError", "Exception"):
            return None
        m = EAI.search(link.message) or (GAI_TEXT.search(link.message) if lone(link) else None)
        if m is None:
            return None
        return Finding(
            f"getaddrinfo could not resolve a host name ({m.group(1)})",
            f"{link.type}: {link.message[:200]}. A host name (often this machine's own hostname, looked up to find the local "
            "IP for the distributed init, or a peer node's name) is not in /etc/hosts and DNS does not know it.",
            ("Add the name to /etc/hosts on every node (127.0.1.1 or the node's IP next to `hostname`), or fix DNS",
             "Or pass IP addresses instead of names: VLLM_HOST_IP / MASTER_ADDR / ray start --node-ip-address, and "
             "HCCL_IF_IP / GLOO_SOCKET_IFNAME for the collective sockets"),
            evidence(link), (GAI_SRC,), key="gai", family="hccl", kind="hostname-unresolvable",
        )
