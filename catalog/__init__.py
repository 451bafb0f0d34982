"""The known-failure catalog (data) and the log classifier that reads logs against it.

Single source of truth about known failures: `explain` uses it on a pasted log, `run` on
live output, `fix` through each entry's fix id.
"""

from __future__ import annotations

from .classify import Classifier, Diagnosis, Explanation, UnknownError, explain_paths
from .entries import Catalog, CatalogProblem, KnownFailure, load_catalog

__all__ = [
    "Catalog", "CatalogProblem", "Classifier", "Diagnosis", "Explanation", "KnownFailure",
    "UnknownError", "explain_paths", "load_catalog",
]
