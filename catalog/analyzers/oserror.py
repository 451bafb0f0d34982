"""OS errors by errno, with the path and who was writing it.

``[Errno 28] No space left on device: '/ckpt/global_step_40/…'`` says more than its class: the path
tells the writer (verl's checkpoint directory, Ray's temp/spill directory, a Hugging Face cache,
/dev/shm), and each writer has its own setting to move it. ENOENT on a path the user configured is
mapped back to the config key that names it (from the Hydra overrides in the log).

torch.save's own writer (caffe2/serialize/inline_container.cc, torch/csrc/serialization.cpp) reports a
failed write without an errno most of the time — "unexpected pos N vs M", "PytorchStreamWriter failed writing
file …", "File … cannot be opened.", "write(): fd N failed with Input/output error" — and that is, far more
often than anything else, the checkpoint's filesystem filling up mid-save (or an output directory that is
missing or unwritable): :class:`CheckpointWrite` reads it as that.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from ..codes import ERRNO_NAME, ERRNO_NAMES
from . import Analyzer, Facts, Finding, evidence
from .hub import HUB_HOST
from ...lazyre import lazy

ERRNO = lazy(r"\[Errno (-?\d+)\] ([^:'\"]+?)(?::\s*['\"]([^'\"]*)['\"])?(?:\s*->\s*['\"]([^'\"]*)['\"])?\s*$")
PHRASES = {
    "No space left on device": 28, "Disk quota exceeded": 122, "Too many open files": 24, "Address already in use": 98,
    "Address in use": 98,  # WSAEADDRINUSE as pyzmq words it on Windows: "ZMQError: Address in use (addr=…)"
    "Permission denied": 13, "Read-only file system": 30, "Cannot allocate memory": 12,
    "Is a directory": 21, "Not a directory": 20, "File name too long": 36,
}
# Exception types that stand for one errno class, when nothing but the type is left: Python's OSError subclasses, and
# Ray's OutOfDiskError (the object store could not spill: the disk under Ray's temp directory is over 95% full).
TYPE_ERRNO = {"PermissionError": 13, "OutOfDiskError": 28, "IsADirectoryError": 21, "NotADirectoryError": 20}
# The path a message names before "is a directory" / "is not a directory" when it does not quote it (MindSpore's
# save_checkpoint: "the parameter `ckpt_file_name`: /data/model_new is a directory, it must be a file name").
DIR_PATH = lazy(r"(/[^\s'\"`,;]+) is (?:not )?a directory")
RAY_SPILL_DIR = "/tmp/ray/session_latest"  # where Ray spills when nothing else is configured
# multiprocessing's recvfds when the descriptor a DataLoader worker sent was dropped at the open-file limit
# (https://github.com/pytorch/pytorch/pull/34768): EMFILE without the word.
ANCDATA = lazy(r"received 0 items of ancdata")
# torch c10d's socket messages; k52dist: and the libuv TCPStore backend's (TCPStoreLibUvBackend.cpp, the default since
# torch 2.4): "The server socket has failed to listen on any local network address. port: N, useIpv6: 0, code: -99,
# name: EADDRNOTAVAIL, message: cannot assign requested address" (a negated errno, uv_err_name, uv_strerror)
C10D_ERRNO = lazy(r"\(errno: (\d+) - ([^)]+)\)|useIpv6: \w+, code: -(\d{1,3}), name: E[A-Z]+, message: ([^,.]+)")
PORT = lazy(r"(?:port[ =:\[]+|:|', )(\d{4,5})\b")  # "port 29500", "host:8000", asyncio's "('0.0.0.0', 8000)"
# A socket call refused by the network, quoted inside another library's message (urllib3's NewConnectionError inside
# requests' ConnectionError, httpx, a plain ConnectionRefusedError): the errno may not end the line.
NET_ERRNO = lazy(r"\[Errno (99|110|111|113)\] (Cannot assign requested address|Connection timed out|Connection refused|No route to host)")
# Where it connected or bound: requests / urllib3 ("host='localhost', port=8000"), torch c10d ("[10.0.0.1]:29500"), aiohttp
# ("Cannot connect to host 127.0.0.1:30000"), asyncio / Python sockets ("('127.0.0.1', 8000)").
ENDPOINT = lazy(r"host='([^']+)', port=(\d{1,5})|\[([^\]\s]+)\]:(\d{1,5})|\bhost ([\w.-]+):(\d{1,5})|\('([\w.:-]+)', (\d{1,5})\)")
# What usually listens on a port a verl run connects to (the defaults of each server).
PORT_OWNERS = {
    "29500": "torch.distributed's rendezvous master (MASTER_PORT, rank 0)", "6379": "the Ray head's GCS (ray start --head)",
    "8265": "the Ray dashboard / job server", "8000": "a vLLM OpenAI-compatible server (vllm serve)",
    "30000": "an SGLang server", "10001": "the Ray client server (ray://)",
}
C10D_CLIENT = lazy(r"client socket has failed to connect")  # c10d's rendezvous client (socket.cpp): DRV-rendezvous's
ECONN_DOC = "https://man7.org/linux/man-pages/man2/connect.2.html"
EADDRNOTAVAIL_DOC = "https://man7.org/linux/man-pages/man2/bind.2.html"
ERRNO_DOC = "https://man7.org/linux/man-pages/man3/errno.3.html"
FSIZE_DOC = "https://man7.org/linux/man-pages/man2/write.2.html"  # EFBIG: the maximum file size or RLIMIT_FSIZE
EFBIG_THREAD = "https://github.com/icloud-photos-downloader/icloud_photos_downloader/issues/52"  # [Errno 27] writing a >4 GB file to FAT
# A socket bind refused with EACCES, and the port it asked for, in the binders' own wordings: torch c10d's TCPStore
# server ("The server socket has failed to bind to [::]:98 (errno: 13 - Permission denied)", socket.cpp), asyncio's
# create_server / uvicorn ("[Errno 13] error while attempting to bind on address ('0.0.0.0', 80): permission denied",
# Lib/asyncio/base_events.py), nginx-style "bind() to 0.0.0.0:80 failed (13: Permission denied)", and Go's net package
# as Docker prints it ("listen tcp4 0.0.0.0:80: bind: permission denied").
BIND_PORT = lazy(
    r"\bbind(?:\(\))?(?: to| on address)?\s+(?:\(['\"][^'\"]*['\"], (\d{1,5})\)|[^\s(]*?:(\d{1,5})\b)"
    r"|\blisten (?:tcp|udp)[46]? [^\s]*?:(\d{1,5}): bind:"
)
PRIVILEGED_PORTS = "https://man7.org/linux/man-pages/man7/ip.7.html"  # "ports below 1024 … CAP_NET_BIND_SERVICE"
C10D_SOCKET = "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/csrc/distributed/c10d/socket.cpp"
ASYNCIO_BIND = "https://github.com/python/cpython/blob/v3.11.7/Lib/asyncio/base_events.py"
EIO_THREAD = "https://github.com/THUDM/slime/issues/326"  # EIO on the second Megatron checkpoint save of a 2-node run: the filesystem
RAY_TEMP = "https://docs.ray.io/en/latest/ray-core/configure.html"
HF_CACHE = "https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables"
VERL_CONFIG = "https://verl.readthedocs.io/en/latest/examples/config.html"
TORCH_WRITER_SRC = "https://github.com/pytorch/pytorch/blob/v2.1.0/caffe2/serialize/inline_container.cc"
# torch's checkpoint writer failing, in the wordings of its releases (inline_container.cc; serialization.cpp's doWrite)
TORCH_WRITER = lazy(
    r"unexpected pos \d+ vs \d+|PytorchStreamWriter failed writing file|write\(\): fd \d+ failed with"
    r"|^File (.+) cannot be opened\.?$"
)


def writer(path: str, link: Link) -> tuple[str, str, str]:
    """(who writes there, the setting that moves it, its doc) from the path and the raising frames."""
    p = path.lower()
    frames = " ".join(f.path for f in link.frames[-6:]).lower()
    if "/dev/shm" in p:
        return "shared memory (/dev/shm)", "start the container with a larger --shm-size (e.g. 64g) or give Ray a smaller object store", RAY_TEMP
    if "ray" in p.split("/")[1:4] or "/ray/session" in p or "session_" in p or "spill" in p:
        return "Ray's temp/spill directory", "export RAY_TMPDIR=/big/disk/ray_tmp (or ray_init._temp_dir=…) before starting Ray", RAY_TEMP
    if "huggingface" in p or "/hub/" in p or "datasets" in p or "hf_" in p:
        return "a Hugging Face cache", "export HF_HOME=/big/disk/hf (HF_DATASETS_CACHE for datasets) before launching", HF_CACHE
    if any(k in p for k in ("checkpoint", "ckpt", "global_step")) or "checkpoint" in frames or "serialization.py" in frames:
        return "verl's checkpoint saving", "set trainer.default_local_dir to a large disk, and trainer.max_actor_ckpt_to_keep to keep fewer checkpoints", VERL_CONFIG
    if any(k in p for k in ("kernel_meta", "ascend", "atc_data", "/.triton", "torch_extensions")):
        return "a compiler/kernel cache", "point the cache at a large disk (ASCEND_CACHE_PATH / TRITON_CACHE_DIR / TORCH_EXTENSIONS_DIR)", ERRNO_DOC
    if p.startswith("/tmp") or "/tmp/" in p:
        return "the temp directory", "export TMPDIR=/big/disk/tmp (and RAY_TMPDIR) before launching", RAY_TEMP
    return "", "", ERRNO_DOC


# A file inside an installed package: "…/site-packages/<pkg>/…" (or Debian's dist-packages).
INSTALLED = lazy(r"/(?:site|dist)-packages/([A-Za-z_]\w*)/")
SETUPTOOLS_DATA = "https://setuptools.pypa.io/en/latest/userguide/datafiles.html"


def package_data(path: str, link: Link) -> str:
    """The installed package a missing file belongs to, when that package's own code opened it (or no frame says otherwise)."""
    m = INSTALLED.search(path)
    if m is None:
        return ""
    own = m.group(1)
    packages = {f.package for f in link.frames if f.package}
    return own if not packages or own in packages else ""


def config_key(path: str, facts: Facts, link: Link) -> str:
    for key, value in facts.overrides.items():
        if path and (value.strip("\"'") == path or path.startswith(value.rstrip("/") + "/") or value in path):
            return key
    p = path.lower()
    frames = " ".join(f.path for f in link.frames[-6:])
    if p.endswith((".parquet", ".jsonl", ".json")) and "dataset" in frames:
        return "data.train_files / data.val_files"
    if p.endswith(("config.json", "tokenizer_config.json", ".safetensors")) or "from_pretrained" in " ".join(f.func for f in link.frames):
        return "actor_rollout_ref.model.path"
    return ""


def bind_refused(link: Link) -> Finding | None:
    """EACCES from a socket bind: a port below 1024 is privileged (root or CAP_NET_BIND_SERVICE), not a path's permissions."""
    m = BIND_PORT.search(link.message)
    if m is None:
        return None
    port = int(next(g for g in m.groups() if g))
    if port >= 1024:
        return Finding(
            f"Permission denied binding port {port}",
            f"{link.short_type}: binding port {port} was refused with EACCES. The port is not a privileged one, so a policy "
            "forbids the bind: an SELinux / AppArmor rule, a container's security profile, or a raised "
            "net.ipv4.ip_unprivileged_port_start.",
            (f"Choose another port (MASTER_PORT, --port, --dashboard-port) or check the policy: sysctl net.ipv4.ip_unprivileged_port_start; "
             "getenforce / ausearch -m avc",),
            evidence(link), (PRIVILEGED_PORTS, ERRNO_DOC), key=f"bind:{port}", family="user", kind="port-bind-denied",
        )
    return Finding(
        f"Permission denied binding port {port}: ports below 1024 are privileged",
        f"{link.short_type}: binding port {port} was refused with EACCES (Permission denied). On Linux a port below 1024 may "
        "be bound only by root or a process with CAP_NET_BIND_SERVICE; the port was set to a privileged number (a master / "
        "rendezvous / server port mistyped or left at a system default) and this user may not bind it.",
        (f"Use a port above 1023 instead of {port} (MASTER_PORT / --master_port for torch.distributed, --port for a server, "
         "the Ray dashboard / GCS ports)",
         "Only if the port must stay: grant the binary CAP_NET_BIND_SERVICE (setcap) or lower net.ipv4.ip_unprivileged_port_start"),
        evidence(link), (PRIVILEGED_PORTS, C10D_SOCKET, ASYNCIO_BIND, ERRNO_DOC), key=f"bind:{port}", family="user",
        kind="privileged-port-bind-denied",
    )


def network_refused(errno: int, link: Link) -> Finding:
    """ECONNREFUSED / EHOSTUNREACH / ETIMEDOUT / EADDRNOTAVAIL: which address, and what usually serves it, since the fix is on that side."""
    m = ENDPOINT.search(" ".join([link.message, *link.detail]))
    host, port = "", ""
    if m is not None:
        pairs = [m.groups()[i:i + 2] for i in range(0, 8, 2)]
        host, port = next((h, p) for h, p in pairs if h)
    where = f"{host}:{port}" if host else ""
    owner = PORT_OWNERS.get(port, "")
    ev = evidence(link)
    if errno == 99:
        return Finding(
            "Cannot assign requested address: the address to bind (or connect from) is not one of this host's" + (f" ({where})" if where else ""),
            f"{link.short_type}: [Errno 99] Cannot assign requested address" + (f" ({where})" if where else "") + ". The kernel "
            "refused the address (EADDRNOTAVAIL): a server was told to listen on an IP this host does not have — on rank 0 "
            "MASTER_ADDR (or HCCL_IF_IP, Ray's --node-ip-address, a server's --host) set to another node's address, a "
            "hostname that resolves elsewhere, or an IPv6 address (::1) in a container without IPv6; less often a client "
            "making many short connections ran out of local ports.",
            ("Use an address this host has: hostname -I / ip -brief addr — on rank 0 MASTER_ADDR must be its own reachable IP; "
             "a server meant for other hosts can listen on 0.0.0.0",
             "Check what the name resolves to on this host: getent hosts <name> (and /etc/hosts inside the container)",
             "In a container without IPv6, use 127.0.0.1 instead of localhost / ::1"),
            ev, (EADDRNOTAVAIL_DOC, ERRNO_DOC), key=f"eaddrnotavail:{where}", family="ray", kind="eaddrnotavail",
        )
    if errno == 110:
        return Finding(
            "Connection timed out: " + (f"{where}" if where else "the address it connects to") + " never answered"
            + (f" ({owner})" if owner else ""),
            f"{link.short_type}: [Errno 110] Connection timed out" + (f" ({where})" if where else "") + ". The connection "
            "attempt got no answer at all (ETIMEDOUT): a firewall or security group silently drops the packets, the address "
            "is another network's (a public or NAT address instead of the one the nodes share, a proxy the cluster cannot "
            "reach), or the host is down. Unlike a refused connection, nothing on the other side said no: the packets were "
            "lost on the way.",
            (f"From this node: nc -vz -w 5 {host or '<host>'} {port or '<port>'} — a timeout here too means the network drops "
             "it: open the port between the nodes (firewall-cmd / iptables, the cloud's security group)",
             "Use the address the nodes share (MASTER_ADDR, Ray's --address / --node-ip-address, HCCL_IF_IP, a server URL); on "
             "an offline cluster, unset http(s)_proxy for internal addresses (no_proxy) and use local copies instead of "
             "internet downloads"),
            ev, (ECONN_DOC, ERRNO_DOC), key=f"conn:110:{where}", family="ray", kind="etimedout",
        )
    label = "Connection refused" if errno == 111 else "No route to host"
    what = (f"nothing is listening at {where}" if where else "nothing is listening at the address it connects to") if errno == 111 else \
        (f"{host or 'the host'} cannot be reached" + (f" on port {port}" if port else ""))
    return Finding(
        f"{label}: {what}" + (f" ({owner})" if owner else ""),
        f"{link.short_type}: [Errno {errno}] {label}" + (f" ({where})" if where else "") + ". "
        + ("The other side answered that no process listens on that address and port (ECONNREFUSED): the server this "
           "process needs — " + (owner or "a rollout / reward / inference server, the rendezvous master or the Ray head")
           + " — was not started yet, has died, listens on another port or only on 127.0.0.1, or the address in the "
           "client's settings is wrong."
           if errno == 111 else
           "No route reached the host (EHOSTUNREACH): a firewall on it rejects the connection (firewalld's default REJECT "
           "answers this way), or the address is on a network this node has no route to (another subnet, a wrong "
           "interface's IP, a node that is down)."),
        ((f"On the server's host, check that it listens: ss -ltnp | grep :{port or '<port>'}; read the server's own log for why it "
          "is not up (a crash at start-up, still loading the model)",
          "Start the server first and wait until it is ready (its health endpoint answers) before clients connect; point the client "
          "at the host and port the server prints",
          "For a server other hosts connect to, listen on 0.0.0.0 (not 127.0.0.1); for torch.distributed, MASTER_ADDR / "
          "MASTER_PORT must be rank 0's reachable IP and port and rank 0 must be running")
         if errno == 111 else
         (f"From this node: ping {host or '<host>'}; nc -vz {host or '<host>'} {port or '<port>'} — then open the ports between the "
          "nodes (firewall-cmd / iptables on each node, the cloud's security group)",
          "Check that the address is the node's address on the network the nodes share (MASTER_ADDR, Ray's --address / "
          "--node-ip-address, HCCL_IF_IP)")),
        ev, (ECONN_DOC, ERRNO_DOC), key=f"conn:{errno}:{where}", family="ray",
        kind="econnrefused" if errno == 111 else "ehostunreach",
    )


class OSErrors(Analyzer):
    id = "DRV-oserror"
    title = "Operating-system error"
    family = "disk"
    stops_run = "a raised OS error (full disk, missing or unwritable path) fails the same way on every retry"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind in ("cann", "process", "hydra"):
            return None
        if link.kind == "code" and not link.type.startswith("errno:"):
            return None
        m = ERRNO.search(link.message)
        c10d = C10D_ERRNO.search(link.message)
        net = None if m or c10d else NET_ERRNO.search(link.message)
        if net:
            errno, text, path = int(net.group(1)), net.group(2), ""
        elif c10d:
            errno, text, path = int(c10d.group(1) or c10d.group(3)), (c10d.group(2) or c10d.group(4)).strip(), ""
        elif m:
            errno, text, path = int(m.group(1)), m.group(2).strip(), m.group(3) or ""
        elif link.kind == "code" and link.type[6:].isdigit() and int(link.type[6:]) in PHRASES.values():
            # a report that gives the number (gRPC's "errno":98): the phrase may be past the line's kept length
            errno = int(link.type[6:])
            text, path = next(p for p, n in PHRASES.items() if n == errno), ""
        else:
            lower = link.message.lower()
            found = next(((p, n) for p, n in PHRASES.items() if p.lower() in lower), None)
            if found is None and (named := ERRNO_NAME.search(link.message)):
                found = next((p, n) for p, n in PHRASES.items() if n == ERRNO_NAMES[named.group(1)]) if ERRNO_NAMES[named.group(1)] != 1 else ("Operation not permitted", 1)
            if found is None and ANCDATA.search(link.message):
                found = ("Too many open files", 24)
            if found is None and link.short_type in TYPE_ERRNO:  # the type alone (an IPython header, a cut paste)
                found = next((p, n) for p, n in PHRASES.items() if n == TYPE_ERRNO[link.short_type])
            if found is None:
                return None
            text, errno = found
            pm = re.search(r"['\"‘](/[^'\"’]+)['\"’]", link.message) or DIR_PATH.search(link.message)  # coreutils quote paths ‘so’ in UTF-8 locales
            path = pm.group(1) if pm else ""
        ev = evidence(link)
        where = f" ({path})" if path else ""
        if errno in (28, 122):
            who, move, doc = writer(path or (RAY_SPILL_DIR if link.short_type == "OutOfDiskError" else ""), link)
            what = "No space left on device" if errno == 28 else "Disk quota exceeded"
            return Finding(
                f"{what}" + (f": {who}" if who else "") + where,
                f"{link.short_type}: [Errno {errno}] {what}{where}. "
                + (f"The path belongs to {who}. " if who else "")
                + "The filesystem holding it is full (or the quota used up); the write failed and the run stopped.",
                tuple(x for x in (f"Check which filesystem it is and what fills it: df -h {path or '.'} ; du -sh {path.rsplit('/', 1)[0] if path else '.'}",
                                  move or "Move the writer's directory to a larger disk, or free space", "Delete old checkpoints / Ray sessions (/tmp/ray/session_*) you no longer need") if x),
                ev, tuple(dict.fromkeys((doc, ERRNO_DOC))), key=f"space:{who}", family="disk", kind="enospc" if errno == 28 else "edquot",
            )
        if errno == 13 and (bound := bind_refused(link)) is not None:
            return bound
        if errno in (13, 1, 30):
            who, move, doc = writer(path, link)
            label = {13: "Permission denied", 1: "Operation not permitted", 30: "Read-only file system"}[errno]
            return Finding(
                f"{label}{where}",
                f"{link.short_type}: [Errno {errno}] {label}{where}. The process's user cannot write or open this path"
                + (f" ({who})" if who else "") + ".",
                (f"ls -ld {path or '<path>'} ; id — then chown/chmod the directory, or run as its owner",
                 move or "Or point the writer at a directory this user owns"),
                ev, tuple(dict.fromkeys((doc, ERRNO_DOC))), key=f"perm:{path}", family="disk", kind={13: "eacces", 1: "eperm", 30: "erofs"}[errno],
            )
        if errno == 2 and path and (own := package_data(path, link)):
            return Finding(
                f"{own} is installed without a data file its own code opens: {path}"[:160],
                f"{link.short_type}: [Errno 2] No such file or directory: '{path}'. The path is inside the installed {own} "
                f"package, opened by {own}'s own code: the wheel or source archive it was installed from left the file out "
                "(a packaging bug of that release: package_data / MANIFEST.in), or the install is partial.",
                (f"Reinstall {own} from a release that ships the file (pip install --force-reinstall --no-cache-dir {own}==<fixed release>), "
                 "or from a clone with pip install -e . (an editable install reads the source tree)",
                 f"Check what the install holds: pip show -f {own} | grep -i {path.rsplit('/', 1)[-1]!r}"),
                ev, (SETUPTOOLS_DATA, ERRNO_DOC), key=f"pkgdata:{own}", family="compat", kind="package-data-missing-from-wheel",
            )
        if errno == 2 and path:
            key = config_key(path, facts, link)
            return Finding(
                f"File or directory not found: {path}"[:160],
                f"{link.short_type}: [Errno 2] No such file or directory: '{path}'."
                + (f" The path comes from the config key {key}." if key else " It is read from a configured path or a relative path resolved from the wrong working directory."),
                (f"Check that {path} exists on every node (ls -l {path}); use an absolute path" + (f" in {key}" if key else ""),
                 "Paths are resolved on the worker nodes too: a path that exists only on the driver node fails on the workers"),
                ev, (VERL_CONFIG, ERRNO_DOC), key=f"enoent:{path}", family="data-model", kind="enoent",
            )
        if errno in (20, 21):
            wanted, got = ("a file", "a directory") if errno == 21 else ("a directory", "a file")
            return Finding(
                f"A path that must be {wanted} is {got}{where}",
                f"{link.short_type}: [Errno {errno}] {'Is a directory' if errno == 21 else 'Not a directory'}{where}. The program "
                f"opens the path as {wanted}, but {got} is there: an output or checkpoint option given a folder where it "
                "wants a file name (or a file where it wants a folder), or an earlier run left one where the other is written.",
                (f"Give the option the kind of path it wants: {'a file name inside the folder (e.g. .../model.ckpt)' if errno == 21 else 'a folder'}"
                 + (f" instead of {path}" if path else ""),
                 "Check what is there: ls -ld <path>; remove or rename what an earlier run left"),
                ev, (ERRNO_DOC,), key=f"dirfile:{errno}:{path}", family="disk", kind="eisdir" if errno == 21 else "enotdir",
            )
        if errno == 24:
            dropped = bool(ANCDATA.search(link.message))
            return Finding(
                "Too many open files (open-file limit)",
                (f"{link.short_type}: {link.message[:120]}. torch's DataLoader workers pass each shared-memory batch as a file "
                 "descriptor; over the open-file limit the descriptor is silently dropped and multiprocessing fails to receive it."
                 if dropped else f"{link.short_type}: [Errno 24] Too many open files.")
                + " The process hit its open-file limit (ulimit -n); Ray workers, dataloader workers and safetensors shards each "
                "hold many descriptors.",
                ("Raise the limit before launching: ulimit -n 65536 (or LimitNOFILE / docker --ulimit nofile=65536:65536)",
                 "Check the current limit inside the container: ulimit -n",
                 *(("Or share batches through files instead: torch.multiprocessing.set_sharing_strategy('file_system')",) if dropped else ())),
                ev, ("https://docs.ray.io/en/latest/cluster/vms/user-guides/large-cluster-best-practices.html", ERRNO_DOC),
                key="emfile", family="ray", kind="emfile",
            )
        if errno == 98:
            pm = PORT.search(" ".join([link.message, *link.detail]))
            port = pm.group(1) if pm else ""
            return Finding(
                f"Address already in use{(' (port ' + port + ')') if port else ''}",
                f"{link.short_type}: [Errno 98] Address already in use. Another process (often a leftover Ray/vLLM/torchrun "
                "from an earlier run) holds the port.",
                (f"Find the holder: ss -ltnp | grep :{port or '<port>'} — stop it (ray stop --force; kill leftover python processes)",
                 "Or choose another port (MASTER_PORT, --port, HCCL_IF_BASE_PORT)"),
                ev, (ERRNO_DOC,), key=f"port:{port}", family="ray", kind="eaddrinuse",
            )
        if errno == 5:
            # EIO: the storage failed the call itself (a shared filesystem that dropped or refuses the access pattern, a
            # failing disk). A lock file's flock refusing it is DRV-filelock's, read before this analyzer.
            who, move, doc = writer(path, link)
            return Finding(
                f"Input/output error from the storage{where}",
                f"{link.short_type}: [Errno 5] Input/output error{where}. The kernel returned EIO: the storage under this path "
                "failed the read or write itself — most often a network or parallel filesystem (NFS, Lustre, a FUSE mount of "
                "object storage) that dropped, timed out or does not support the access pattern (several ranks writing one "
                "checkpoint folder at once), else a failing local disk"
                + (f"; the path belongs to {who}" if who else "") + ". The program is not at fault: the same call works on healthy storage.",
                (f"Check the mount and the kernel log: df -h {path or '<path>'}; mount | grep <its mount>; dmesg | tail (I/O errors, 'server not responding')",
                 move or "Write checkpoints and caches to a local disk, then copy them to the shared storage",
                 "If every rank writes the same shared folder, let one rank write (or use storage that supports parallel writes)"),
                ev, tuple(dict.fromkeys((doc, ERRNO_DOC, EIO_THREAD))), key=f"eio:{who}", family="disk", kind="eio",
            )
        if errno == 36:
            # ENAMETOOLONG: one component over the file system's NAME_MAX (255 bytes on ext4 / xfs, 143 on eCryptfs home
            # folders), or the whole path over PATH_MAX (4096). Caches that build file names from a path or URL (datasets'
            # lock and arrow files, hub and compile caches) and run names made of every hyperparameter hit it.
            name = max(path.split("/"), key=len) if path else ""
            return Finding(
                f"A file name longer than the file system allows{where}",
                f"{link.short_type}: [Errno 36] File name too long{where}. "
                + (f"Its longest component is {len(name.encode())} bytes; a name" if name else "A name")
                + " may have at most NAME_MAX bytes per component (255 on ext4 / xfs, 143 on an eCryptfs-encrypted home "
                "folder) and PATH_MAX (4096) in all. A cache that names its files after a long source path or URL (datasets' "
                "cache and lock files, hub and compile caches) or a run / checkpoint name built from many settings passed it.",
                ("Point the cache at a short path on a plain local disk: HF_DATASETS_CACHE / HF_HOME / TRITON_CACHE_DIR (not an "
                 "encrypted home folder)",
                 "Shorten the names the run builds (experiment_name, checkpoint and output folder names, data file paths)",
                 f"Check the limit where it writes: getconf NAME_MAX {(path.rsplit('/', 1)[0] or '/') if '/' in path else '<dir>'}"),
                ev, (ERRNO_DOC,), key=f"enametoolong:{path[:60]}", family="disk", kind="enametoolong",
            )
        if errno == 27:
            # EFBIG: one file outgrew a cap, the disk is not full (write(2): a file over the implementation's maximum file
            # size or the process's file size limit): a filesystem's own maximum (vfat at 4 GiB) or RLIMIT_FSIZE (ulimit
            # -f) set by a container, scheduler or shell profile (icloud_photos_downloader#52: a >4 GB file on FAT).
            who, _, _ = writer(path, link)
            return Finding(
                f"File too large: the filesystem's maximum file size or the process's file-size limit (ulimit -f){where}"[:160],
                f"{link.short_type}: [Errno 27] File too large{where}. The kernel refused to grow one file (EFBIG): the "
                "filesystem under it caps a file's size (FAT32 / vfat at 4 GiB, some FUSE and network mounts), or the "
                "process runs under a file-size limit (ulimit -f, RLIMIT_FSIZE, set by the container, a batch scheduler or a "
                "shell profile)" + (f"; the path belongs to {who}" if who else "") + ". The disk is not full and the "
                "open-file limit is not involved: a single file (a checkpoint shard, a merged model, a cache) outgrew the cap.",
                (f"Check both caps where the job runs: ulimit -f (should print unlimited); df -T {path or '<path>'} (vfat / exfat / fuse)",
                 "Lift the limit in the launch script (ulimit -f unlimited) or in the container's / scheduler's file-size setting",
                 "Or write to a filesystem without the cap (ext4 / xfs; verl's checkpoints: trainer.default_local_dir), or save "
                 "in smaller files (save_pretrained(max_shard_size=...))"),
                ev, tuple(dict.fromkeys((FSIZE_DOC, ERRNO_DOC, EFBIG_THREAD))), key=f"efbig:{who}", family="disk", kind="efbig",
            )
        if errno in (99, 110, 111, 113):
            if c10d and C10D_CLIENT.search(link.message):
                return None  # torch c10d's rendezvous client failing to reach the master: DRV-rendezvous reads it
            if HUB_HOST.search(" ".join([link.message, *link.detail])):
                return None  # a Hugging Face Hub download (or its mirror): DRV-hub reads it, with the offline fixes
            return network_refused(errno, link)
        if errno == 12:
            return Finding(
                "Cannot allocate memory (host)",
                f"{link.short_type}: [Errno 12] Cannot allocate memory: the host (or the container's cgroup) ran out of RAM or address space.",
                ("Check free -g and the container memory limit; reduce dataloader workers, CPU offload or Ray object store size",),
                ev, (ERRNO_DOC,), key="enomem", family="memory", kind="host-oom",
            )
        return None


class CheckpointWrite(Analyzer):
    id = "DRV-ckpt-write"
    title = "torch.save could not write the checkpoint"
    family = "disk"
    stops_run = "a checkpoint that cannot be written fails every save the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare") or link.short_type not in ("RuntimeError", "OSError"):
            return None
        m = TORCH_WRITER.search(link.message)
        if m is None:
            return None
        path = (m.group(1) or "").strip("'\"")
        who, move, _ = writer(path or "checkpoint", link)
        folder = path.rsplit("/", 1)[0] if "/" in path else "<checkpoint dir>"
        return Finding(
            "torch.save could not write the checkpoint" + (f" ({path})" if path else ""),
            f"{link.short_type}: {link.message[:160]}. torch's checkpoint writer failed part-way through a save; it gives no "
            "errno, and the usual reason is that the filesystem holding the checkpoint filled up (or hit its quota) mid-write, "
            "less often that the output directory is missing or not writable.",
            (f"Check the space and the directory: df -h {folder} ; ls -ld {folder}",
             move or "Point the checkpoint directory at a larger disk, or keep fewer checkpoints",
             "Delete old checkpoints you no longer need, then resume from the last complete one"),
            evidence(link), (TORCH_WRITER_SRC, ERRNO_DOC), key=f"ckpt:{folder}", family="disk", kind="enospc",
        )


# A lock file's flock refused by the filesystem under it. filelock (and the copy datasets vendored as
# datasets/utils/filelock.py) takes an exclusive non-blocking fcntl.flock in UnixFileLock._acquire; contention comes back
# as EAGAIN / EWOULDBLOCK (EACCES) and is retried, ENOSYS is "FileSystem does not appear to support flock" (filelock
# 3.x: NotImplementedError; 3.32+ switches to a soft lock), and any other errno is raised as a real failure (filelock
# src/filelock/_unix.py). The errnos a network or parallel filesystem returns there: EIO (5), ENOLCK (37, no lock
# daemon / "nolock" NFS mount), ENOSYS (38), EOPNOTSUPP (95).
FILELOCK_SRC = "https://github.com/tox-dev/filelock/blob/61511ebc1cc5d40b28f8584f1078e63f2d63fb02/src/filelock/_unix.py"
FLOCK_ERRNOS = {5: "EIO", 37: "ENOLCK", 38: "ENOSYS", 95: "EOPNOTSUPP"}
FLOCK_UNSUPPORTED = lazy(r"FileSystem does not appear to support flock; use?r? SoftFileLock instead")
FILELOCK_FRAME = lazy(r"(?:^|/)filelock(?:/[\w.]+|\.py)$")


class FileLockFs(Analyzer):
    id = "DRV-filelock"
    title = "The filesystem under a lock file does not support file locks (flock)"
    family = "disk"
    stops_run = "a filesystem that refuses flock refuses it on every retry"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        if FLOCK_UNSUPPORTED.search(link.message):
            errno = 38
        else:
            m = ERRNO.search(link.message)
            if m is None or int(m.group(1)) not in FLOCK_ERRNOS or not link.frames:
                return None
            innermost = link.frames[-1]
            if not (FILELOCK_FRAME.search(innermost.path) and innermost.func in ("_acquire", "_acquire_native", "_lock_fd_nonblocking")):
                return None
            errno = int(m.group(1))
        where = next((f.path for f in reversed(link.frames) if not FILELOCK_FRAME.search(f.path)), "")
        return Finding(
            f"File lock refused by the filesystem ({FLOCK_ERRNOS[errno]} from flock on the lock file)",
            f"{link.short_type}: {link.message[:160]} — raised by the flock call that filelock makes on a lock file (Hugging Face "
            "datasets / hub caches, model downloads and other tools lock their cache folders this way). Lock contention is "
            "retried by filelock; this errno is not contention: the filesystem that holds the lock file does not support "
            "flock — typically a shared network or parallel filesystem (NFS mounted with nolock or without a lock daemon, "
            "CIFS, Lustre / GPFS without flock support) holding the cache folder."
            + (f" The lock was taken from {where}." if where else ""),
            ("Move the cache to a local disk: export HF_HOME (or HF_DATASETS_CACHE / TRANSFORMERS_CACHE / the tool's cache "
             "setting) to a folder on local storage, e.g. under /tmp or the node's local SSD, before launching",
             "Or mount the shared filesystem with lock support (NFS: a running lock daemon or local_lock=all; Lustre: -o flock)",
             "A tool that only needs mutual exclusion on one node can use filelock.SoftFileLock instead of FileLock"),
            evidence(link), (FILELOCK_SRC, ERRNO_DOC), key=f"flock:{errno}", family="disk", kind="filelock-unsupported-fs",
        )
