"""ascendrl: diagnostics-first companion for verl GRPO runs on Huawei Ascend NPUs."""

__version__ = "0.1.0"
