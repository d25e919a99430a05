"""The figures of README.md and docs/evaluation.md are the checked-in results' (eval/results.json,
bench/results*.json): tools/docs_figures.py writes them between markers, and these tests fail when a page
and the results disagree."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def figures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "tools" / "docs_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def copy_of_the_repository(figures: ModuleType, into: Path) -> Path:
    """The pages with regions and the results they are written from, nothing else."""
    for path in [*figures.REGIONS, figures.EVAL, figures.BENCH, figures.BENCH_100K]:
        (into / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, into / path)
    return into


def test_the_checked_in_pages_show_the_checked_in_results(figures: ModuleType) -> None:
    assert figures.stale(ROOT) == [], "run `make docs-figures` and commit the pages"


def test_a_result_that_changes_makes_its_regions_stale_until_they_are_written_again(
    figures: ModuleType, tmp_path: Path
) -> None:
    root = copy_of_the_repository(figures, tmp_path)
    results = json.loads((root / figures.EVAL).read_text())
    results["golden"]["modes"]["hybrid"]["overall"]["ndcg@10"] = 0.1234
    (root / figures.EVAL).write_text(json.dumps(results))
    bench = json.loads((root / figures.BENCH).read_text())
    next(s for s in bench["scales"] if s["memories_per_tenant"] == 10000)["recall_mcp"]["p95_ms"] = 99.94
    (root / figures.BENCH).write_text(json.dumps(bench))

    assert figures.stale(root) == ["README.md: quality", "docs/evaluation.md: golden", "docs/evaluation.md: bench"]
    assert figures.main(["--check", "--root", str(root)]) == 1
    assert figures.main(["--root", str(root)]) == 0
    assert figures.stale(root) == []
    readme = (root / "README.md").read_text()
    assert "nDCG@10 0.123 / " in readme and "p95 99.9 / " in readme
    # only the regions were rewritten: the rest of each page is as checked in
    for page in figures.REGIONS:
        outside = figures.region_pattern  # every region's body removed, the rest compared
        mine, theirs = (root / page).read_text(), (ROOT / page).read_text()
        for name in figures.REGIONS[page]:
            mine, theirs = outside(name).sub("", mine), outside(name).sub("", theirs)
        assert mine == theirs, page


def test_a_page_that_lost_a_region_is_an_error(figures: ModuleType, tmp_path: Path) -> None:
    root = copy_of_the_repository(figures, tmp_path)
    page = root / "docs" / "evaluation.md"
    page.write_text(page.read_text().replace("<!-- /figures:beir -->", ""))
    with pytest.raises(ValueError, match="no region 'beir'"):
        figures.stale(root)


def test_the_readme_types_no_figure_by_hand(figures: ModuleType) -> None:
    """Outside its generated region, the README's quality section holds no measured figure (a decimal number)."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quality and speed", 1)[1].split("\n## ", 1)[0]
    by_hand = figures.region_pattern("quality").sub("", section)
    assert re.findall(r"\d+\.\d+", by_hand) == []
