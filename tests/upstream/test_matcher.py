"""The upstream-fix matcher on real error lines against the shipped data file.

Each pasted line is the raw line quoted in the upstream fix's own PR description (the link is
on each case), dressed the way users paste it: with a log prefix, colour escapes, pip lines.
"""

from __future__ import annotations

import json

import pytest

from ascendrl.catalog import upstream
from ascendrl.catalog.logversions import Stated

# source: https://github.com/verl-project/verl/pull/3779 (verl protocol.union_tensor_dict)
BATCH = "AssertionError: Two tensor dict must have identical batch size. Got torch.Size([4096]) and torch.Size([16384])"
# source: https://gitcode.com/Ascend/pytorch/pull/32647 (path shortened the way an install prints it)
SYMBOL = ("ImportError: /usr/local/python3.11.13/lib/python3.11/site-packages/torch_npu/lib/libtorch_npu.so: "
          "undefined symbol: aclrtGetDeviceInfo")
# source: https://github.com/verl-project/verl/pull/5195
DATA_SOURCE = "KeyError: 'data_source'"


def _top(lines, versions=None):
    got = upstream.match(lines, versions or {})
    assert got, f"no upstream fix matched {lines!r}"
    return got[0]


def _entry(repo: str, pr: int) -> dict:
    data = json.loads(upstream.DATA_FILE.read_text())
    return next(e for e in data["entries"] if e["repo"] == repo and e["pr"] == pr)


def test_shipped_data_is_real_and_sized():
    data = json.loads(upstream.DATA_FILE.read_text())
    sizes = {r: sum(e["repo"] == r for e in data["entries"]) for r in data["sizes"]}
    assert sizes == data["sizes"]
    assert sizes["vllm-project/vllm-ascend"] >= 50 and sizes["verl-project/verl"] >= 50 and sizes["Ascend/pytorch"] >= 10
    for e in data["entries"]:
        assert e["raw_example"] and len(e["raw_example"]) <= 200
        assert e["link"].startswith(("https://github.com/", "https://gitcode.com/Ascend/pytorch/pull/"))
        if len(e["raw_example"]) < 200:   # the raw line was not cut: it normalises to the template
            assert upstream.template_of(upstream.extract_errors(e["raw_example"])[0])[0] == e["template"], e


def test_one_line_paste_names_the_fix_and_the_version_verdict():
    fix = _top([BATCH], {"verl": "0.5.0"})
    assert (fix.repo, fix.pr, fix.tag_first_fixed) == ("verl-project/verl", 3779, "v0.6.1")
    assert fix.link == "https://github.com/verl-project/verl/pull/3779"
    assert fix.verdict == "lacks-fix" and "0.5" in fix.verdict_reason
    assert _top([BATCH], {"verl": "0.6.0"}).verdict == "lacks-fix"     # v0.6.0 predates the fix
    assert _top([BATCH], {"verl": "0.6.1"}).verdict == "has-fix"
    assert _top([BATCH], {"verl": "0.9.0"}).verdict == "has-fix"
    assert _top([BATCH]).verdict == "unknown"


def test_prefixed_coloured_line_and_version_from_pip_freeze_in_the_log():
    log = ["verl==0.5.0", "vllm==0.10.0",
           "\x1b[36m(TaskRunner pid=20311)\x1b[0m " + BATCH.replace("4096", "512")]
    fix = _top(log)
    assert fix.pr == 3779 and fix.user_version == "0.5.0" and fix.verdict == "lacks-fix"


def test_journald_escapes_and_a_paste_given_as_one_string():
    paste = "Nov 30 12:00:01 node1 python[4242]: #033[36m(TaskRunner pid=20311)#033[0m " + BATCH
    assert _top(paste, {"verl": "0.6.1"}).pr == 3779
    assert upstream.match("verl==0.5.0\n" + BATCH, {})[0].verdict == "lacks-fix"


def test_torch_npu_verdict_uses_the_pip_version_of_the_fixing_tag():
    e = _entry("Ascend/pytorch", 32647)
    tag, ver = e["fixed_in"]["2.7.1"]
    fix = _top([SYMBOL], {"torch_npu": "2.7.1"})
    assert (fix.pr, fix.package) == (32647, "torch-npu")
    assert fix.verdict == ("has-fix" if ver == "2.7.1" else "lacks-fix")
    assert _top([SYMBOL], {"torch-npu": ver}).verdict == "has-fix"
    assert tag in _top([SYMBOL], {"torch-npu": "2.6.0"}).verdict_reason or e["fixed_in"].get("2.6.0")


def test_a_paste_cut_short_still_matches():
    fix = _top(["AssertionError: Two tensor dict must have identical batch size"])
    assert fix.pr == 3779 and "cut short" in fix.evidence[0]


def test_quoted_value_decides_a_wordless_message():
    assert _top([DATA_SOURCE]).pr == 5195
    assert not [f for f in upstream.match(["KeyError: 'no_such_field_xyz'"], {}) if f.pr == 5195]


def test_generic_message_needs_a_frame_in_common():
    e = next(x for x in json.loads(upstream.DATA_FILE.read_text())["entries"]
             if upstream.is_generic(x["template"]) and x["files"] and x["files"][0].endswith(".py") and not x["args"])
    raw = e["raw_example"]
    assert not [f for f in upstream.match([raw], {}) if f.commit == e["commit"]]
    frame = f'  File "/usr/lib/python3.11/site-packages/{e["files"][0]}", line 10, in f'
    assert any(f.commit == e["commit"] for f in upstream.match(["Traceback (most recent call last):", frame, raw], {}))


def test_unrelated_and_healthy_lines_match_nothing():
    assert upstream.match(["INFO 01-01 12:00:00 [core.py:100] Automatically detected platform npu.",
                           "(TaskRunner pid=1) step:1 - actor/pg_loss:0.01 - timing_s/gen:61.5"], {}) == []


def test_log_versions_decide_the_verdict_and_say_so():
    fix = upstream.match([BATCH], log_versions={"verl": "0.5.0"})[0]
    assert (fix.pr, fix.user_version, fix.version_from, fix.verdict) == (3779, "0.5.0", "log", "lacks-fix")
    assert any(ln.strip().startswith("your log shows verl 0.5.0: this fix is not in it") for ln in upstream.render_lines(fix))
    fix = upstream.match([BATCH], log_versions={"verl": "0.7.1"})[0]
    assert fix.verdict == "has-fix" and any("your log shows verl 0.7.1: this fix is in it" in ln for ln in upstream.render_lines(fix))
    given = upstream.match([BATCH], {"verl": "0.6.1"}, log_versions={"verl": "0.5.0"})[0]  # the installed version wins
    assert (given.user_version, given.version_from, given.verdict) == ("0.6.1", "given", "has-fix")
    assert not any("your log shows" in ln for ln in upstream.render_lines(given))


def test_a_version_the_lines_state_decides_the_verdict_and_names_its_line():
    # "verl: 0.5.0" is a form the upstream matcher did not read before the two readers became one
    fix = upstream.match([BATCH, "verl: 0.5.0"])[0]
    assert (fix.user_version, fix.version_from, fix.version_line, fix.verdict) == ("0.5.0", "log", "verl: 0.5.0", "lacks-fix")
    assert "  version read from: verl: 0.5.0" in upstream.render_lines(fix)
    # the lines handed over come before what the classifier read elsewhere in the log
    fix = upstream.match([BATCH, "verl==0.7.1"], log_versions={"verl": Stated("0.5.0", "verl 0.5.0")})[0]
    assert (fix.user_version, fix.version_line, fix.verdict) == ("0.7.1", "verl==0.7.1", "has-fix")
    fix = upstream.match([BATCH], log_versions={"verl": Stated("0.5.0", "[pip3] verl==0.5.0")})[0]
    assert fix.version_line == "[pip3] verl==0.5.0" and fix.verdict == "lacks-fix"


def test_verdict_across_release_lines():
    fixed_in = {"0.11": ["v0.11.0", "0.11.0"], "0.12": ["v0.12.0rc1", "0.12.0rc1"]}
    assert upstream.verdict("vllm-ascend", fixed_in, "0.11.0rc3")[0] == "lacks-fix"
    assert upstream.verdict("vllm-ascend", fixed_in, "0.11.0")[0] == "has-fix"
    assert upstream.verdict("vllm-ascend", fixed_in, "0.13.0")[0] == "has-fix"    # branched after the fix
    assert upstream.verdict("vllm-ascend", fixed_in, "0.10.2")[0] == "lacks-fix"  # never backported
    assert upstream.verdict("vllm-ascend", {}, "0.10.2")[0] == "unreleased"
    assert upstream.verdict("vllm-ascend", fixed_in, "not-a-version")[0] == "unknown"


def test_render_lines_and_json():
    fix = _top([BATCH], {"verl": "0.5.0"})
    lines = upstream.render_lines(fix)
    assert lines[0].startswith("Known upstream bug (verl-project/verl): fixed in v0.6.1 by PR #3779")
    assert any("lacks the fix" in ln for ln in lines)
    doc = json.loads(json.dumps(upstream.to_json([fix])))
    assert doc[0]["pr"] == 3779 and doc[0]["verdict"] == "lacks-fix"
