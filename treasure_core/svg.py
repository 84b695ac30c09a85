"""SVG helpers for the games' board renderers (`render_mode="svg"`): a small document builder
that escapes every text, sizes the document to what was drawn and marks clickable targets, a
legend block, grid labels, and the legal actions of the seat a view belongs to.

A target is any drawn element that names legal actions of the seat to act: it carries
`class="target"` and `data-actions="a b c"` (the action ids, space-separated), and a `<title>`
with their words, so that a page can attach clicks to it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from treasure_core.header import CURRENT_PLAYER, TERMINAL

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"  # generic families only: no external font
INK = "#222222"
PAPER = "#fbf8f0"


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


class Svg:
    """A standalone SVG document built element by element; `text()` returns it."""

    def __init__(self, title: str, margin: int = 10) -> None:
        self.title = title
        self.margin = margin
        self.parts: list[str] = []
        self.right = 0.0
        self.bottom = 0.0

    def _grow(self, x: float, y: float) -> None:
        self.right = max(self.right, x)
        self.bottom = max(self.bottom, y)

    def _element(
        self,
        tag: str,
        attrs: dict[str, object],
        body: str = "",
        actions: Sequence[int] = (),
        tip: str | None = None,
    ) -> None:
        attrs = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items() if v is not None}
        if actions:
            attrs["class"] = f"{attrs['class']} target" if "class" in attrs else "target"
            attrs["data-actions"] = " ".join(str(int(a)) for a in actions)
        elif not tip:  # a mark with no words lets a click through to the target under it
            attrs["pointer-events"] = "none"
        text = " ".join(
            f"{k}={quoteattr(_number(v) if isinstance(v, (int, float)) else str(v))}"
            for k, v in attrs.items()
        )
        inner = (f"<title>{escape(tip)}</title>" if tip else "") + body
        self.parts.append(f"<{tag} {text}>{inner}</{tag}>" if inner else f"<{tag} {text}/>")

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        stroke: str = INK,
        actions: Sequence[int] = (),
        tip: str | None = None,
        rx: float = 0,
        stroke_width: float = 1,
        **attrs: object,
    ) -> None:
        self._grow(x + w, y + h)
        self._element(
            "rect",
            dict(
                x=x,
                y=y,
                width=w,
                height=h,
                fill=fill,
                stroke=stroke,
                rx=rx or None,
                stroke_width=stroke_width,
            )
            | attrs,
            actions=actions,
            tip=tip,
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: str,
        stroke: str = INK,
        actions: Sequence[int] = (),
        tip: str | None = None,
        **attrs: object,
    ) -> None:
        self._grow(cx + r, cy + r)
        self._element(
            "circle", dict(cx=cx, cy=cy, r=r, fill=fill, stroke=stroke) | attrs, actions=actions, tip=tip
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, width: float = 1) -> None:
        self._grow(max(x1, x2), max(y1, y2))
        self._element("line", dict(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width))

    def polygon(
        self,
        points: Iterable[tuple[float, float]],
        fill: str,
        stroke: str = INK,
        actions: Sequence[int] = (),
        tip: str | None = None,
    ) -> None:
        points = list(points)
        for x, y in points:
            self._grow(x, y)
        path = " ".join(f"{_number(float(x))},{_number(float(y))}" for x, y in points)
        self._element("polygon", dict(points=path, fill=fill, stroke=stroke), actions=actions, tip=tip)

    def text(
        self,
        x: float,
        y: float,
        words: str,
        size: float = 12,
        fill: str = INK,
        anchor: str = "start",
        weight: str | None = None,
        actions: Sequence[int] = (),
        tip: str | None = None,
    ) -> None:
        """`words` with its baseline at y (anchor start, middle or end at x)."""
        width = len(words) * size * 0.6
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        self._grow(left + width, y + size * 0.3)
        self._element(
            "text",
            dict(
                x=x,
                y=y,
                font_size=size,
                fill=fill,
                text_anchor=None if anchor == "start" else anchor,
                font_weight=weight,
                font_family=FONT,
            ),
            body=escape(words),
            actions=actions,
            tip=tip,
        )

    def open_group(self, **attrs: object) -> None:
        attrs = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
        self.parts.append("<g " + " ".join(f"{k}={quoteattr(str(v))}" for k, v in attrs.items()) + ">")

    def close_group(self) -> None:
        self.parts.append("</g>")

    def document(self) -> str:
        """The standalone document, sized to what was drawn plus the margin."""
        width = int(self.right + self.margin + 0.999)
        height = int(self.bottom + self.margin + 0.999)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">'
            f"<title>{escape(self.title)}</title>"
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="{PAPER}"/>'
        )
        return head + "".join(self.parts) + "</svg>\n"


# A legend entry: (shape, fill, label) with shape "box", "dot", "ring" or a short text glyph
# drawn in `fill`.
LegendEntry = tuple[str, str, str]


def legend(
    doc: Svg, x: float, y: float, entries: Sequence[LegendEntry], columns: int = 3, width: float = 230
) -> float:
    """A legend block headed "Legend" naming every symbol, `columns` entries to a row from (x, y)
    (the heading's top); returns the y below it."""
    doc.open_group(class_="legend")
    doc.text(x, y + 13, "Legend", size=13, weight="bold")
    row_height = 20
    for k, (shape, fill, label) in enumerate(entries):
        row, col = divmod(k, columns)
        left, top = x + col * width, y + 22 + row * row_height
        if shape == "box":
            doc.rect(left, top, 14, 14, fill)
        elif shape == "dot":
            doc.circle(left + 7, top + 7, 6, fill)
        elif shape == "ring":
            doc.circle(left + 7, top + 7, 6, "none", stroke=fill, stroke_width=2)
        else:
            doc.text(left + 7, top + 12, shape, size=12, fill=fill, anchor="middle", weight="bold")
        doc.text(left + 20, top + 12, label, size=11)
    doc.close_group()
    rows = (len(entries) + columns - 1) // columns
    return y + 22 + rows * row_height + 4


def grid_labels(
    doc: Svg, left: float, top: float, cell: float, rows: int, cols: int, size: float = 11
) -> None:
    """ "col 1".."col N" over a grid of `cell`-sized squares whose top left is (left, top), and
    "row 1".."row N" to its left."""
    for c in range(cols):
        doc.text(left + c * cell + cell / 2, top - 5, f"col {c + 1}", size=size, anchor="middle")
    for r in range(rows):
        doc.text(left - 5, top + r * cell + cell / 2 + size / 3, f"row {r + 1}", size=size, anchor="end")


def legal_actions(state: np.ndarray, viewer: int | None, legal_mask: Callable, n_actions: int) -> list[int]:
    """The legal actions of the seat to act, when the view is that seat's (or the full view,
    viewer None); else none (a seat never sees another's options as targets)."""
    if state[TERMINAL]:
        return []
    seat = int(state[CURRENT_PLAYER])
    if viewer is not None and int(viewer) != seat:
        return []
    mask = np.zeros(n_actions, np.int8)
    legal_mask(state, seat, mask)
    return [int(a) for a in np.flatnonzero(mask)]


class Targets:
    """The legal actions grouped by the drawn element that names them: `take(actions)` returns
    the legal ones of `actions` and records them as reached."""

    def __init__(self, legal: Iterable[int]) -> None:
        self.legal = set(int(a) for a in legal)
        self.reached: set[int] = set()

    def take(self, actions: Iterable[int]) -> list[int]:
        found = sorted(int(a) for a in actions if int(a) in self.legal)
        self.reached.update(found)
        return found

    def __bool__(self) -> bool:
        return bool(self.legal)


def action_buttons(
    doc: Svg, x: float, y: float, actions: Sequence[int], words: Callable[[int], str], width: float = 330
) -> float:
    """One button per action (its words on it) from (x, y) down, for the legal actions that name
    no drawn component (pass, end the turn, a vote); returns the y below them."""
    for action in actions:
        label = words(int(action))
        doc.rect(x, y, width, 20, "#eef2ff", stroke="#3050a0", rx=4, actions=[action], tip=label)
        shown = label if len(label) <= width / 6.2 else label[: int(width / 6.2) - 1] + "…"
        doc.text(x + 6, y + 14, shown, size=11, actions=[action], tip=label)
        y += 24
    return y
