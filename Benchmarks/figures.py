"""What the benchmark tables share: how a figure is written, and the median of rounds."""

import statistics


def number(value: float | None, digits: int = 1) -> str:
    """`value` for a table: a dash when there is none, thousands grouped and no fraction from 1,000 up."""
    if value is None:
        return "—"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def medians(runs: list[dict], keys: list[str]) -> dict:
    """Each of `keys` as the median over `runs` of the rounds that have it (`None` where none has), and `rounds`."""
    row: dict = {"rounds": len(runs)}
    for key in keys:
        values = [run[key] for run in runs if run[key] is not None]
        row[key] = statistics.median(values) if values else None
    return row


def ratio_cell(ratio: dict | None) -> str:
    """A ratio for a table: the ratio of the medians, with the rounds' own spread when there were several."""
    if ratio is None:
        return "—"
    spread = ratio["per_round"]
    span = f" ({min(spread):.2f}–{max(spread):.2f})" if len(spread) > 1 else ""
    return f"{ratio['of_medians']:.2f}×{span}"
