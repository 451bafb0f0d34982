"""CANN toolkit, NNAL/ATB and HDK (driver, firmware) as installed on disk and as sourced.

File names and formats (see also tests/hosts/README.md):
- toolkit: ``<home>/<arch>-linux/ascend_toolkit_install.info`` (``version=``, ``arch=``, ``path=``),
  under ``/usr/local/Ascend/ascend-toolkit/latest`` up to CANN 8.3 and ``/usr/local/Ascend/cann``
  from 8.5 (hiascend instg_0044 for 83RC1 and 850); ``/etc/Ascend/ascend_cann_install.info``
  (``Install_Path=``) records a custom location; ``version.cfg`` is a last resort.
- NNAL: ``/usr/local/Ascend/nnal/atb/latest/version.info`` (``Ascend-cann-atb : 8.3.RC1``),
  ``/usr/local/Ascend/nnal/atb/set_env.sh`` sets ``ATB_HOME_PATH``.
- driver/firmware: ``<base>/driver/version.info`` (``Version=``, ``compatible_version_fw=[a,b]``),
  ``<base>/firmware/version.info`` (``Version=``, ``package_version=``), base from
  ``/etc/ascend_install.info`` ``Driver_Install_Path_Param`` (Ascend/mind-cluster faultdiag guide).
"""

from __future__ import annotations

import fnmatch
import re

from ..host import Host
from ..model import Fact, missing
from .kvfile import UnreadableFile, pick, read_kv

ASCEND_BASE = "/usr/local/Ascend"
ARCHES = ("aarch64", "x86_64")
TOOLKIT_INFO = "ascend_toolkit_install.info"


def probe_cann(host: Host) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    facts.update(_toolkit(host))
    facts.update(_cann_env(host))
    facts.update(_nnal(host))
    facts.update(_hdk(host))
    return facts


def _toolkit_homes(host: Host) -> list[tuple[str, str]]:
    """Candidate toolkit homes (host paths) with how each was found, most authoritative first."""
    homes: list[tuple[str, str]] = []
    for var in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
        value = host.getenv(var)
        if value:
            homes.append((value.rstrip("/"), f"${var}"))
    bases = [ASCEND_BASE]
    try:
        record = read_kv(host, "/etc/Ascend/ascend_cann_install.info")
        install = pick(record, "Install_Path")
        if install:
            bases.insert(0, install.rstrip("/"))
    except (OSError, UnreadableFile):
        pass
    bases.append(f"{host.home()}/Ascend")
    for b in dict.fromkeys(bases):
        homes.append((f"{b}/cann", "CANN >= 8.5 layout"))
        homes.append((f"{b}/ascend-toolkit/latest", "CANN <= 8.3 layout"))
    return homes


def _read_toolkit(host: Host, home: str) -> dict[str, str] | None:
    for arch in ARCHES:
        info = f"{home}/{arch}-linux/{TOOLKIT_INFO}"
        try:
            values = read_kv(host, info)
        except (FileNotFoundError, NotADirectoryError):
            continue
        version = pick(values, "version")
        if not version:
            raise UnreadableFile(f"{info} has no version= line")
        return {
            "version": version,
            "arch": pick(values, "arch") or arch,
            "home": home,
            "info_file": info,
        }
    cfg = f"{home}/version.cfg"
    try:
        text = host.read_text(cfg)
    except (FileNotFoundError, NotADirectoryError):
        text = ""
    if text:
        match = re.search(r"^toolkit_(?:running|installed)_version=\[[^:\]]*:([^\]]+)\]", text, re.M)
        if match:
            return {"version": match.group(1).strip(), "arch": "", "home": home, "info_file": cfg}
    return None


def _toolkit(host: Host) -> dict[str, Fact]:
    found: list[dict[str, str]] = []
    errors: list[str] = []
    looked: list[str] = []
    for home, how in _toolkit_homes(host):
        looked.append(home)
        try:
            info = _read_toolkit(host, home)
        except (OSError, UnreadableFile) as exc:
            errors.append(str(exc))
            continue
        if info and all(f["info_file"] != info["info_file"] for f in found):
            info["found_by"] = how
            found.append(info)
    # Versioned installs side by side (ascend-toolkit/<ver>, cann-<ver>) matter when
    # `latest` or the env points at the wrong one.
    installed = sorted(
        {n for n in _names(host, f"{ASCEND_BASE}/ascend-toolkit", "[0-9]*")}
        | {n[len("cann-"):] for n in _names(host, ASCEND_BASE, "cann-[0-9]*")}
    )
    facts = {"cann.installed_versions": Fact(installed, f"directory listing of {ASCEND_BASE}")}
    if found:
        primary = found[0]
        facts["cann.toolkit"] = Fact(primary, primary["info_file"])
        facts["cann.toolkit.version"] = Fact(primary["version"], primary["info_file"])
        facts["cann.toolkits"] = Fact(found, "toolkit install records")
    else:
        reason = "; ".join(errors) if errors else "no " + TOOLKIT_INFO + " under " + ", ".join(looked)
        facts["cann.toolkit"] = missing("toolkit install records", reason)
        facts["cann.toolkit.version"] = missing("toolkit install records", reason)
        facts["cann.toolkits"] = Fact([], "toolkit install records")
        if errors:
            facts["cann.toolkit.unreadable"] = Fact(errors, "toolkit install records")
    set_env = [
        s
        for s in (
            f"{ASCEND_BASE}/cann/set_env.sh",
            f"{ASCEND_BASE}/ascend-toolkit/set_env.sh",
            f"{host.home()}/Ascend/cann/set_env.sh",
            f"{host.home()}/Ascend/ascend-toolkit/set_env.sh",
        )
        if host.is_file(s)
    ]
    facts["cann.set_env"] = (
        Fact(set_env[0], "file exists")
        if set_env
        else missing("file search", "no set_env.sh under /usr/local/Ascend or ~/Ascend")
    )
    return facts


def _names(host: Host, folder: str, pattern: str) -> list[str]:
    """Sub-folders of a host folder whose names match ``pattern`` (links resolved inside the root)."""
    try:
        names = host.listdir(folder)
    except OSError:
        return []
    return [n for n in names if fnmatch.fnmatchcase(n, pattern) and host.is_dir(f"{folder}/{n}")]


def _cann_env(host: Host) -> dict[str, Fact]:
    """What `source set_env.sh` leaves in the environment, as this process sees it."""
    home = host.getenv("ASCEND_HOME_PATH") or host.getenv("ASCEND_TOOLKIT_HOME")
    opp = host.getenv("ASCEND_OPP_PATH")
    ld = [p.rstrip("/") for p in (host.getenv("LD_LIBRARY_PATH") or "").split(":") if p]
    state = {
        "ASCEND_HOME_PATH": home,
        "home_exists": bool(home) and host.is_dir(home),
        "ASCEND_OPP_PATH": opp,
        "opp_exists": bool(opp) and host.is_dir(opp),
        "toolkit_lib_on_ld_path": bool(home) and f"{home.rstrip('/')}/lib64" in ld,
        "driver_lib_on_ld_path": any(p.endswith("/driver/lib64/driver") or p.endswith("/driver/lib64") for p in ld)
        or any(p.endswith("/driver/lib64/common") for p in ld),
        "libhccl_found": _find_lib(host, ld, "libhccl.so"),
        "libascend_hal_found": _find_lib(host, ld, "libascend_hal.so"),
    }
    return {"cann.env": Fact(state, "environment: ASCEND_HOME_PATH, ASCEND_OPP_PATH, LD_LIBRARY_PATH")}


def _find_lib(host: Host, ld: list[str], name: str) -> str | None:
    for directory in ld:
        if host.exists(f"{directory}/{name}"):
            return f"{directory}/{name}"
    return None


_ATB_VERSION = re.compile(r"Ascend-cann-atb\s*(?:Version)?\s*:\s*(\S+)", re.I)


def _nnal(host: Host) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    info = f"{ASCEND_BASE}/nnal/atb/latest/version.info"
    try:
        text = host.read_text(info)
        match = _ATB_VERSION.search(text) or re.search(r"^\s*version\s*[=:]\s*(\S+)", text, re.M | re.I)
        if "\x00" in text or not match:
            facts["nnal.version"] = missing(info, f"{info} has no 'Ascend-cann-atb : <version>' line")
        else:
            facts["nnal.version"] = Fact(match.group(1), info)
    except FileNotFoundError:
        present = host.is_dir(f"{ASCEND_BASE}/nnal/atb")
        facts["nnal.version"] = missing(
            info, "NNAL installed but version.info missing" if present else "NNAL (ATB) not installed"
        )
    except OSError as exc:
        facts["nnal.version"] = missing(info, f"unreadable: {exc}")
    set_env = f"{ASCEND_BASE}/nnal/atb/set_env.sh"
    facts["nnal.set_env"] = (
        Fact(set_env, "file exists") if host.is_file(set_env) else missing(set_env, "not found")
    )
    atb_home = host.getenv("ATB_HOME_PATH")
    facts["nnal.env"] = Fact(
        {
            "ATB_HOME_PATH": atb_home,
            "libatb_exists": bool(atb_home) and host.exists(f"{atb_home}/lib/libatb.so"),
        },
        "environment: ATB_HOME_PATH",
    )
    return facts


_RANGE = re.compile(r"\[\s*([^,\]]+?)\s*,\s*([^\]]+?)\s*\]")


def _hdk(host: Host) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    base = ASCEND_BASE
    try:
        record = read_kv(host, "/etc/ascend_install.info")
        facts["hdk.install_info"] = Fact(record, "/etc/ascend_install.info")
        base = (pick(record, "Driver_Install_Path_Param", "Driver_Install_Path") or base).rstrip("/")
    except FileNotFoundError:
        facts["hdk.install_info"] = missing("/etc/ascend_install.info", "not present (driver not installed on this host, or not mounted)")
    except (OSError, UnreadableFile) as exc:
        facts["hdk.install_info"] = missing("/etc/ascend_install.info", f"unreadable: {exc}")
    for part in ("driver", "firmware"):
        path = f"{base}/{part}/version.info"
        try:
            values = read_kv(host, path)
        except FileNotFoundError:
            facts[f"hdk.{part}"] = missing(path, "not present")
            continue
        except (OSError, UnreadableFile) as exc:
            facts[f"hdk.{part}"] = missing(path, f"unreadable: {exc}")
            continue
        version = pick(values, "Version")
        if not version:
            facts[f"hdk.{part}"] = missing(path, f"{path} has no Version= line")
            continue
        info: dict[str, object] = {"version": version, "path": path}
        if part == "driver":
            fw = _RANGE.search(pick(values, "compatible_version_fw") or "")
            info["compatible_firmware"] = [fw.group(1), fw.group(2)] if fw else None
        else:
            info["package_version"] = pick(values, "package_version")
        facts[f"hdk.{part}"] = Fact(info, path)
    return facts
