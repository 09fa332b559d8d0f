"""The score-progression chart: cumulative totals per round as SVG geometry for a template."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 22
#: distinct on screen and, with the dash patterns, on a black-and-white printout
#: each at least 3:1 against the light card (WCAG's contrast for lines that carry meaning)
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#c95f00", "#0e8a96", "#8c564b",
           "#c0479d", "#7f7f7f", "#8a8b00", "#393b79", "#637939")  # fmt: skip
DASHES = ("", "6 3", "2 2", "8 3 2 3", "", "6 3", "2 2", "8 3 2 3", "", "6 3", "2 2", "8 3 2 3")


@dataclass
class Line:
    """One player's line: name, colour, dash pattern, SVG points, final total, series.

    ``series`` indexes the palette: the style sheet draws ``series-<n>`` in a lighter colour in
    dark mode.
    """

    player: str
    colour: str
    dash: str
    points: str
    total: int
    series: int = 0


@dataclass
class Chart:
    """Everything the template draws: the lines, the grid values and the round labels."""

    width: int
    height: int
    lines: list[Line]
    grid: list[tuple[float, int]]
    rounds: list[tuple[float, int]]
    left: int
    right: int


#: a point the chart draws: a round's number and every player's running total after it
Point = tuple[int, Mapping[str, int]]


def nice_step(span: int) -> int:
    """Return a round step (1, 2, 5, 10, 20, 50 ...) giving at most five intervals."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            if span <= 5 * factor * magnitude:
                return factor * magnitude
        magnitude *= 10


def totals_chart(players: Sequence[str], points: Sequence[Point], count: int) -> Chart:
    """Lay out the chart: x = round number, y = running total, one line per player.

    ``points`` are the rounds drawn (a sample of a long session, the last round included), each
    with the running totals after it; every line starts from 0 before round 1.
    """
    drawn = [(0, {}), *points]
    series = {name: [totals.get(name, 0) for _n, totals in drawn] for name in players}
    values = [value for line in series.values() for value in line]
    low, high = min(0, *values), max(1, *values)
    step = nice_step(high - low)
    low, high = (low // step) * step, -(-high // step) * step
    across = (WIDTH - LEFT - RIGHT) / max(count, 1)
    down = (HEIGHT - TOP - BOTTOM) / (high - low)

    def x(number: int) -> float:
        return round(LEFT + across * number, 1)

    def y(value: int) -> float:
        return round(TOP + down * (high - value), 1)

    xs = [f"{LEFT + across * number:.1f}," for number, _totals in drawn]

    def ys(values: list[int]) -> list[float]:
        return [TOP + down * (high - value) for value in values]

    lines = [
        Line(
            player=name,
            colour=COLOURS[seat % len(COLOURS)],
            dash=DASHES[seat % len(DASHES)],
            points=" ".join([f"{at}{y:.1f}" for at, y in zip(xs, ys(series[name]), strict=True)]),
            total=series[name][-1],
            series=seat % len(COLOURS),
        )
        for seat, name in enumerate(players)
    ]
    grid = [(y(value), value) for value in range(low, high + 1, step)]
    marks = sorted({1, count, *range(nice_step(count), count, nice_step(count))})
    return Chart(
        WIDTH, HEIGHT, lines, grid, [(x(n), n) for n in marks if n >= 1], LEFT, WIDTH - RIGHT
    )


@dataclass
class RatingChart:
    """A player's rating over time in one game: the line, the grid values, the first and last
    dates under it."""

    width: int
    height: int
    points: str
    grid: list[tuple[float, int]]
    left: int
    right: int
    first: str
    last: str
    colour: str = COLOURS[0]


def rating_chart(history: Sequence[Mapping[str, object]]) -> RatingChart | None:
    """Lay out a rating's history (``[{"at", "display"}]``, oldest first): x = the rating's
    step, y = its shown value; None with fewer than two values to draw."""
    values = [
        float(shown) for point in history if isinstance(shown := point.get("display"), (int, float))
    ]
    if len(values) < 2:
        return None
    low, high = int(min(0, *values) // 1), -int(-max(1, *values) // 1)
    step = nice_step(high - low)
    low, high = (low // step) * step, -(-high // step) * step
    across = (WIDTH - LEFT - RIGHT) / (len(values) - 1)
    down = (HEIGHT - TOP - BOTTOM) / (high - low)
    points = " ".join(
        f"{LEFT + across * at:.1f},{TOP + down * (high - value):.1f}"
        for at, value in enumerate(values)
    )
    grid = [(round(TOP + down * (high - mark), 1), mark) for mark in range(low, high + 1, step)]
    dates = [str(point.get("at") or "")[:10] for point in history]
    return RatingChart(WIDTH, HEIGHT, points, grid, LEFT, WIDTH - RIGHT, dates[0], dates[-1])
