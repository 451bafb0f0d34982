"""The parsed-data cache (ascendrl/cache.py): same entries as parsing, rebuilt when damaged or
stale, and a folder that cannot be written costs nothing but the parse."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from ascendrl.catalog import load_catalog
from ascendrl import cache

AS_USER = ["setpriv", "--reuid", "1000", "--regid", "1000", "--clear-groups"]
PASTE = "RuntimeError: call aclnnMatmul failed\n"


def _load(folder, monkeypatch, no_user):
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv("ASCENDRL_NO_CACHE", raising=False)
    return load_catalog(user_dir=no_user)


def test_cached_catalog_equals_the_parsed_one(tmp_path, monkeypatch):
    no_user = tmp_path / "no-user"
    first = _load(tmp_path / "c", monkeypatch, no_user)
    files = list((tmp_path / "c" / "ascendrl").glob("catalog-*.bin"))
    assert len(files) == 1
    second = _load(tmp_path / "c", monkeypatch, no_user)  # from the file this time
    monkeypatch.setenv("ASCENDRL_NO_CACHE", "1")
    parsed = load_catalog(user_dir=no_user)
    assert first.entries == second.entries == parsed.entries and len(parsed.entries) > 100
    assert list((tmp_path / "c" / "ascendrl").glob("catalog-*.bin")) == files


def test_damaged_or_foreign_cache_is_rebuilt(tmp_path, monkeypatch):
    no_user = tmp_path / "no-user"
    good = _load(tmp_path / "c", monkeypatch, no_user)
    [path] = (tmp_path / "c" / "ascendrl").glob("catalog-*.bin")
    whole = path.read_bytes()
    flipped = whole[:-5] + bytes([whole[-5] ^ 1]) + whole[-4:]
    for damage in (b"{not json", whole[: len(whole) // 2], flipped, cache.encode({"entries": [{"id": 1}], "problems": []}),
                   cache.encode([1, 2])):
        path.write_bytes(damage)
        assert _load(tmp_path / "c", monkeypatch, no_user).entries == good.entries
        assert cache.decode(path.read_bytes())["entries"][0]["id"] == good.entries[0].id  # rewritten whole


def test_cache_file_others_may_write_is_not_read(tmp_path, monkeypatch):
    """A cache file group/world-writable, or owned by another user, could steer explain: it is parsed again instead."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cached("demo", "k", lambda: {"v": 1}, dict) == {"v": 1}
    path = tmp_path / "ascendrl" / "demo-k.bin"
    assert path.stat().st_mode & 0o077 == 0
    path.write_bytes(cache.encode({"v": "forged"}))
    path.chmod(0o666)
    assert cache.cached("demo", "k", lambda: {"v": 2}, dict) == {"v": 2}
    path.write_bytes(cache.encode({"v": "forged"}))
    path.chmod(0o600)
    os.chown(path, 1000, 1000)
    assert cache.cached("demo", "k", lambda: {"v": 3}, dict) == {"v": 3}


def test_new_keys_keep_only_the_newest_few_files(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cached("demo", "k1", lambda: {"v": 1}, dict) == {"v": 1}
    assert cache.cached("demo", "k1", lambda: {"v": 99}, dict) == {"v": 1}  # a hit: build not called
    os.utime(tmp_path / "ascendrl" / "demo-k1.bin", (1000, 1000))
    for n in range(2, 8):
        assert cache.cached("demo", f"k{n}", lambda n=n: {"v": n}, dict) == {"v": n}
        os.utime(tmp_path / "ascendrl" / f"demo-k{n}.bin", (n * 1000, n * 1000))  # distinct ages, oldest first
    names = sorted(p.name for p in (tmp_path / "ascendrl").iterdir())
    assert len(names) == cache.KEEP and "demo-k7.bin" in names and "demo-k1.bin" not in names
    assert cache.content_key("a", [("f", "x")]) != cache.content_key("a", [("f", "y")])


def test_unwritable_cache_folder_still_explains(shared_tmp):
    """A second user whose cache folder belongs to root: explain works and writes nothing there."""
    locked = shared_tmp / "cache"
    locked.mkdir(mode=0o755)
    paste = shared_tmp / "one.log"
    paste.write_text(PASTE)
    paste.chmod(0o644)
    env = {**os.environ, "XDG_CACHE_HOME": str(locked), "HOME": str(shared_tmp), "XDG_CONFIG_HOME": str(shared_tmp / "cfg")}
    env.pop("ASCENDRL_NO_CACHE", None)
    proc = subprocess.run([*AS_USER, sys.executable, "-m", "ascendrl", "explain", "--json", str(paste)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["diagnoses"][0]["id"] == "ARL-E331"
    assert proc.stderr == "" and list(locked.iterdir()) == []


def test_cache_folder_that_is_a_file(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert len(_load(blocker, monkeypatch, tmp_path / "no-user").entries) > 100
    assert blocker.read_text() == "not a folder"


def test_lazy_pattern_answers_like_the_compiled_one():
    import re

    from ascendrl.lazyre import lazy

    pattern = lazy(r"(\w+)Error: (.*)", re.I)
    assert "_args" in vars(pattern) and "search" not in vars(pattern)  # nothing compiled yet
    m = pattern.search("x runtimeerror: boom")
    assert m is not None and m.groups() == ("runtime", "boom") and pattern.pattern == r"(\w+)Error: (.*)"
    assert "search" in vars(pattern)  # compiled once; later calls skip __getattr__
    assert pattern.sub("E", "KeyError: k") == "E" and pattern.flags & re.I


def _head_index_in(folder, monkeypatch, catalog):
    from ascendrl.catalog import classify

    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv("ASCENDRL_NO_CACHE", raising=False)
    classify._HEAD_INDEXES.clear()  # the per-process memo would answer without the file
    heads, word_heads = classify._head_index(catalog.entries)
    return heads, word_heads._items, word_heads._groups


def test_cached_head_index_equals_the_derived_one(tmp_path, monkeypatch):
    """The "first words of a known message" look-ups read from the cache are what deriving them gives."""
    from ascendrl.catalog import classify

    catalog = load_catalog(user_dir=tmp_path / "no-user")
    built = _head_index_in(tmp_path / "c", monkeypatch, catalog)
    [path] = (tmp_path / "c" / "ascendrl").glob("heads-*.bin")
    read = _head_index_in(tmp_path / "c", monkeypatch, catalog)  # from the file this time
    owners = [(e, s) for e in catalog.entries for s in e.signatures]
    derived_heads = [(h, e, s) for e, s in owners if len(h := classify._literal_head(s.regex)) >= 24]
    derived_items = [(rx, e, s) for e, s in owners for rx in classify._word_prefixes(s.regex)]
    assert built == read
    assert read[0] == derived_heads and read[1] == derived_items and len(derived_items) > 1000
    assert read[2] == classify._word_groups([rx for rx, _, _ in derived_items])
    for damage in (b"{not json", cache.encode({"heads": [["x" * 30, 10 ** 6]], "prefixes": [], "groups": []})):
        path.write_bytes(damage)
        assert _head_index_in(tmp_path / "c", monkeypatch, catalog) == read  # rebuilt, not trusted


def test_head_index_follows_the_catalog(tmp_path, monkeypatch):
    """A catalog without an entry (leave-thread-out scoring, a user's catalog) gets its own index, not another's."""
    import dataclasses

    catalog = load_catalog(user_dir=tmp_path / "no-user")
    whole = _head_index_in(tmp_path / "c", monkeypatch, catalog)
    dropped = whole[1][0][1]  # the first entry that has word prefixes
    smaller = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e is not dropped))
    part = _head_index_in(tmp_path / "c", monkeypatch, smaller)
    assert all(e is not dropped for _, e, _ in part[1]) and any(e is dropped for _, e, _ in whole[1])
    assert len(list((tmp_path / "c" / "ascendrl").glob("heads-*.bin"))) == 2


def _settled(*paths):
    """Files whose timestamps are older than cache.RACY_NS (mtime set back; ctime cannot be, so wait it out)."""
    import time

    for p in paths:
        os.utime(p, ns=(time.time_ns() - 10 * cache.RACY_NS,) * 2)
    time.sleep(cache.RACY_NS / 1e9 + 0.1)


def test_stat_key_reads_the_texts_only_when_a_file_changed(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    monkeypatch.delenv("ASCENDRL_NO_CACHE", raising=False)
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("one")
    b.write_text("two")
    reads = []

    def key():
        reads.append(1)
        return cache.content_key("demo", [(p.name, p.read_text()) for p in (a, b)])

    fresh = cache.stat_key("demo", [a, b], ("x",), key)
    assert cache.stat_key("demo", [a, b], ("x",), key) == fresh and len(reads) == 2  # changed just now: not remembered
    _settled(a, b)
    first = cache.stat_key("demo", [a, b], ("x",), key)
    assert first == fresh and len(reads) == 3
    assert cache.stat_key("demo", [a, b], ("x",), key) == first and len(reads) == 3  # remembered: no read
    assert cache.stat_key("demo", [a, b], ("y",), key) == first and len(reads) == 4  # another part: another signature
    a.write_text("ONE")  # same size; mtime set back below, yet ctime moves
    _settled(a)
    changed = cache.stat_key("demo", [a, b], ("x",), key)
    assert changed != first and len(reads) == 5
    assert cache.stat_key("demo", [a, b], ("x",), key) == changed and len(reads) == 5
    assert cache.stat_key("demo", [a, tmp_path / "gone.yaml"], ("x",), key) and len(reads) == 6  # a missing file: computed
    assert cache.stat_key("demo", None, ("x",), key) == changed and len(reads) == 7  # no folder on disk: computed


def test_stat_key_ignores_a_damaged_record(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    monkeypatch.delenv("ASCENDRL_NO_CACHE", raising=False)
    a = tmp_path / "a.yaml"
    a.write_text("one")
    _settled(a)
    assert cache.stat_key("demo", [a], (), lambda: "k1") == "k1"
    (record,) = (tmp_path / "c" / "ascendrl").glob("stat-demo-*.bin")
    for damage in (cache.encode({"key": 7}), b"[", cache.encode(["k1"])):
        record.write_bytes(damage)
        assert cache.stat_key("demo", [a], (), lambda: "k2") == "k2"


_LOAD_AND_COUNT_READS = """
import json, sys
sys.path.insert(0, sys.argv[1])
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and str(args[0]).endswith(".yaml") else None)
from ascendrl.catalog import entries
assert entries.__file__.startswith(sys.argv[1]), entries.__file__
titles = {e.id: e.title for e in entries.load_catalog().entries}
print(json.dumps({"titles": titles, "yaml_reads": sum("known_failures" in p for p in opened)}))
"""


def test_catalog_edit_is_seen_through_the_stat_record(tmp_path):
    """A copy of the installed package, loaded by real processes: a settled catalog is not re-read (Python's audit hook
    counts the YAML files opened), and an edited entry's title shows on the next load."""
    import shutil

    root = os.path.dirname(os.path.dirname(os.path.abspath(cache.__file__)))
    pkg = tmp_path / "pkg" / "ascendrl"
    skip = shutil.ignore_patterns("__pycache__", "data")
    shutil.copytree(os.path.join(root, "ascendrl"), pkg, ignore=skip)
    shutil.copytree(os.path.join(root, "catalog"), pkg / "catalog", ignore=skip)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "c"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    env.pop("ASCENDRL_NO_CACHE", None)

    def load():
        proc = subprocess.run([sys.executable, "-c", _LOAD_AND_COUNT_READS, str(tmp_path / "pkg")], capture_output=True,
                              text=True, timeout=300, env=env, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return json.loads(proc.stdout)

    folder = pkg / "catalog" / "known_failures"
    _settled(pkg / "catalog" / "entries.py", *folder.iterdir())
    first = load()
    assert first["yaml_reads"] > 100 and list((tmp_path / "c" / "ascendrl").glob("stat-catalog-*.bin"))
    second = load()
    assert second == {"titles": first["titles"], "yaml_reads": 0}  # the stat record and the parse: no YAML opened
    target = next(p for p in sorted(folder.iterdir()) if "title: " in p.read_text())
    text = target.read_text()
    line = next(ln for ln in text.splitlines() if ln.lstrip().startswith("title: "))
    target.write_text(text.replace(line, line.split("title: ")[0] + "title: EDITED TITLE", 1))
    third = load()
    assert "EDITED TITLE" in third["titles"].values() and "EDITED TITLE" not in first["titles"].values()
    assert third["yaml_reads"] > 100


def test_lazy_literals_are_remembered_across_processes(tmp_path):
    """The first explain writes the literals it worked out; what it wrote is what required_literals answers."""
    from ascendrl import lazyre

    paste = tmp_path / "one.log"
    paste.write_text(PASTE)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "c"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    env.pop("ASCENDRL_NO_CACHE", None)
    run = lambda: subprocess.run([sys.executable, "-m", "ascendrl", "explain", "--json", str(paste)],  # noqa: E731
                                 capture_output=True, text=True, timeout=120, env=env)
    first = run()
    (memo,) = (tmp_path / "c" / "ascendrl").glob("lazy-literals-*.bin")
    rows = cache.decode(memo.read_bytes())
    assert len(rows) > 50
    for flags, pattern, literals in rows:
        assert lazyre.required_literals(pattern, flags) == (None if literals is None else tuple(literals))
    stamp = memo.stat().st_mtime_ns
    second = run()
    assert json.loads(second.stdout) == json.loads(first.stdout) and memo.stat().st_mtime_ns == stamp  # all remembered: not rewritten
    memo.write_bytes(cache.encode([[0, "x", 5]]))  # not what lazyre writes: worked out again, same answers, rewritten whole
    third = run()
    assert json.loads(third.stdout) == json.loads(first.stdout) and len(cache.decode(memo.read_bytes())) == len(rows)


def test_every_cache_kind_a_session_writes_reads_back(tmp_path):
    """explain on several logs and check: every file written decodes, so none of the data fell back to parsing each time."""
    import glob

    logs = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "cases", "*", "*.log")))[:40]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "c"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    env.pop("ASCENDRL_NO_CACHE", None)
    for argv in (["explain", *logs], ["check", "--json"]):
        subprocess.run([sys.executable, "-m", "ascendrl", *argv], capture_output=True, timeout=300, env=env)
    folder = tmp_path / "c" / "ascendrl"
    kinds = {p.name.rsplit("-", 1)[0] for p in folder.iterdir()}
    assert {"catalog", "heads", "gatedset", "lazy-literals", "own-checks", "compat"} <= kinds, kinds
    assert not list(folder.glob("*.json")) and not list(folder.glob(".*.tmp"))
    for path in folder.iterdir():
        assert cache.decode(path.read_bytes()) is not None, path.name


def test_json_files_of_older_releases_are_removed_when_their_kind_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "ascendrl"
    folder.mkdir()
    (folder / "demo-old.json").write_text("{}")
    (folder / "other-old.json").write_text("{}")
    assert cache.cached("demo", "k", lambda: {"v": 1}, dict) == {"v": 1}
    assert sorted(p.name for p in folder.iterdir()) == ["demo-k.bin", "other-old.json"]


def test_own_source_is_read_once_per_process(tmp_path):
    """A module edited while a process runs keeps being keyed by the text the process read first (and parsed with)."""
    module = tmp_path / "parser.py"
    module.write_text("VERSION = 1\n")
    first = cache.own_source(str(module))
    module.write_text("VERSION = 2\n")
    assert cache.own_source(str(module)) == first == b"VERSION = 1\n"
    assert cache.own_source(str(tmp_path / "absent.py"))  # no file: the package version stands in


_EDIT_AFTER_IMPORT_THEN_EXPLAIN = """
import pathlib, sys
sys.path.insert(0, sys.argv[1])
from ascendrl.catalog import classify, explain_paths, load_catalog
from ascendrl import cache
assert classify.__file__.startswith(sys.argv[1]), classify.__file__
if sys.argv[2] == "edit":  # an upgrade lands while this process starts: the file on disk is not the one it runs
    source = pathlib.Path(classify.__file__)
    source.write_text(source.read_text() + "# edited after import\\n")
log = pathlib.Path(sys.argv[3])
result = explain_paths(load_catalog(), [log])
print(result.diagnoses[0].entry.id if result.diagnoses else "none", cache._STALE)
"""


def test_a_module_changed_after_its_import_stores_nothing(tmp_path):
    """A copy of the installed package in real processes: one whose classify.py is edited after its import (before its
    first cache lookup) answers as usual but stores no more cache files (classify's word-prefix index among them), so
    no later process can read its parse under the edited text's key; the next process, running the edited text, stores
    as usual."""
    import shutil

    root = os.path.dirname(os.path.dirname(os.path.abspath(cache.__file__)))
    pkg = tmp_path / "pkg" / "ascendrl"
    skip = shutil.ignore_patterns("__pycache__", "data")
    shutil.copytree(os.path.join(root, "ascendrl"), pkg, ignore=skip)
    shutil.copytree(os.path.join(root, "catalog"), pkg / "catalog", ignore=skip)
    log = tmp_path / "x.log"
    log.write_text(PASTE)
    folder = tmp_path / "c" / "ascendrl"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "c"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("ASCENDRL_NO_CACHE", None)

    def run(mode):
        proc = subprocess.run([sys.executable, "-c", _EDIT_AFTER_IMPORT_THEN_EXPLAIN, str(tmp_path / "pkg"), mode, str(log)],
                              capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout.split()

    stale = run("edit")
    assert stale[1] == "True" and stale[0] != "none"
    assert not list(folder.glob("heads-*.bin"))  # classify's parse (stores of unchanged modules before it are keyed right)
    fresh = run("keep")
    assert fresh == [stale[0], "False"] and list(folder.glob("heads-*.bin")) and list(folder.glob("catalog-*.bin"))
