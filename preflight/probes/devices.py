"""Device nodes a container needs to reach the NPUs, and what the env makes visible.

An Ascend container is started with ``--device /dev/davinciN`` for each NPU plus
``/dev/davinci_manager``, ``/dev/devmm_svm`` and ``/dev/hisi_hdc`` (Ascend docker
runtime / MindCluster container guides); forgetting them is the classic miss.
"""

from __future__ import annotations

import os
import re
import stat

from ..host import Host
from ..model import Fact

CONTROL_NODES = ("davinci_manager", "devmm_svm", "hisi_hdc")
_DAVINCI = re.compile(r"^davinci(\d+)$")


def probe_devices(host: Host) -> dict[str, Fact]:
    ids: list[int] = []
    inaccessible: list[str] = []
    try:
        names = host.listdir("/dev")
    except OSError:
        names = []
    for name in names:
        match = _DAVINCI.match(name)
        if match:
            ids.append(int(match.group(1)))
            if not _usable(host, f"/dev/{name}"):
                inaccessible.append(f"/dev/{name}")
    control = {}
    for name in CONTROL_NODES:
        path = f"/dev/{name}"
        control[name] = "missing" if not host.exists(path) else ("ok" if _usable(host, path) else "no access")
    return {
        "devices.davinci": Fact(sorted(ids), "listing of /dev"),
        "devices.inaccessible": Fact(inaccessible, "os.access on /dev/davinci*"),
        "devices.control": Fact(control, "/dev/" + ", /dev/".join(CONTROL_NODES)),
        "devices.visible_env": Fact(host.getenv("ASCEND_RT_VISIBLE_DEVICES"), "env ASCEND_RT_VISIBLE_DEVICES"),
    }


def _usable(host: Host, path: str) -> bool:
    """Readable and writable; on the live host it must also be a character device."""
    st = host.stat(path)
    if st is None or (host.live and not stat.S_ISCHR(st.st_mode)):
        return False
    try:
        return os.access(host.path(path), os.R_OK | os.W_OK)
    except OSError:
        return False


def parse_visible_devices(value: str) -> tuple[list[int], str | None]:
    """Parse ASCEND_RT_VISIBLE_DEVICES the way the runtime does.

    The runtime reads comma-separated ascending logical ids and stops at the first
    invalid entry: "1, 2,3" gives [1]; "1,3,8" on 8 NPUs gives [1,3] (CANN envref_07_0028).
    Returns the ids it will use and, if it stopped early, the text it stopped at.
    """
    used: list[int] = []
    for part in value.split(","):
        if not part.isdigit() or (used and int(part) <= used[-1]):
            return used, part
        used.append(int(part))
    return used, None
