"""What the benchmark tables share: how a figure is written."""


def number(value: float | None, digits: int = 1) -> str:
    """`value` for a table: a dash when there is none, thousands grouped and no fraction from 1,000 up."""
    if value is None:
        return "—"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"
