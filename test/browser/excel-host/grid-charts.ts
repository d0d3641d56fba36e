// Charts as the stand-in's grid view draws them: a box over the cells where the chart was
// placed, with its title, its series as lines or bars read from the cells they cover now, the
// first and last x labels, and how many points each series has, so a screenshot shows what a
// chart is bound to.
import { type ChartModel, type SeriesSource, type WorkbookModel, rangeValue, shownFormat, shownText } from "./workbook-model";

/** Points to pixels in the grid picture (the grid is drawn smaller than Excel's). */
const SCALE = 0.6;
const COLOURS = ["#0f6cbd", "#c239b3", "#107c41", "#ca5010", "#5c2e91"];

/** The values a series' cells show now: numbers, or null for a cell that holds none. */
export function seriesNumbers(model: WorkbookModel, source: SeriesSource | null): Array<number | null> {
  return cellsOf(source).map(([sheet, r, c]) => {
    const value = rangeValue(model.shown(sheet, r, c));
    return typeof value === "number" ? value : null;
  });
}

/** The text the x cells show now (dates as dates). */
export function seriesLabels(model: WorkbookModel, source: SeriesSource | null): string[] {
  return cellsOf(source).map(([sheet, r, c]) => {
    const shown = model.shown(sheet, r, c);
    return shownText(shown, shownFormat(shown, sheet.cells.get(`${r},${c}`)));
  });
}

/** The chart as an absolutely placed SVG, its top-left at (left, top) pixels. */
export function chartMarkup(model: WorkbookModel, chart: ChartModel, left: number, top: number): string {
  const width = Math.round(chart.width * SCALE);
  const height = Math.round(chart.height * SCALE);
  const plot = { x: 36, y: 28, w: width - 48, h: height - 60 };
  const series = chart.series.map((s) => ({ name: s.name, values: seriesNumbers(model, s.values) }));
  const labels = seriesLabels(model, chart.series[0]?.xValues ?? null);
  const all = series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  // Columns rise from 0; a line spans its own range, as Excel's automatic axis mostly does.
  const column = chart.type.startsWith("Column");
  const low = all.length === 0 ? 0 : column ? Math.min(0, ...all) : Math.min(...all);
  const high = Math.max(low, ...all) > low ? Math.max(...all) : low + 1;
  const y = (v: number) => plot.y + plot.h - ((v - low) / (high - low)) * plot.h;
  const count = Math.max(1, ...series.map((s) => s.values.length));
  const slot = plot.w / count;
  const parts: string[] = [];
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    if (column) {
      const bar = Math.max(1, (slot * 0.7) / series.length);
      s.values.forEach((v, j) => {
        if (v === null) return;
        const x = plot.x + j * slot + slot * 0.15 + i * bar;
        parts.push(
          `<rect x="${x.toFixed(1)}" y="${y(Math.max(v, 0)).toFixed(1)}" width="${bar.toFixed(1)}" height="${Math.abs(y(v) - y(0)).toFixed(1)}" fill="${colour}"/>`,
        );
      });
    } else {
      // A cell without a number breaks the line, as Excel shows gaps by default.
      let path = "";
      s.values.forEach((v, j) => {
        if (v === null) return void (path += " ");
        const x = plot.x + j * slot + slot / 2;
        path += `${path.endsWith(" ") || path === "" ? "M" : "L"}${x.toFixed(1)},${y(v).toFixed(1)}`;
      });
      parts.push(`<path d="${path.trim()}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    }
  });
  const legend = series.map((s) => `${escape(s.name)} (${s.values.length})`).join(" · ");
  return (
    `<svg class="chart" data-chart="${escape(chart.name)}" role="img" aria-label="${escape(`Chart ${chart.title}: ${legend}`)}" ` +
    `style="position:absolute;left:${left}px;top:${top}px" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" fill="#fff" stroke="#8a8a8a"/>` +
    `<text x="${width / 2}" y="18" text-anchor="middle" font-size="12" font-weight="600">${escape(chart.title)}</text>` +
    `<line x1="${plot.x}" y1="${plot.y + plot.h}" x2="${plot.x + plot.w}" y2="${plot.y + plot.h}" stroke="#bdbdbd"/>` +
    parts.join("") +
    `<text x="${plot.x}" y="${plot.y + plot.h + 14}" font-size="10">${escape(labels[0] ?? "")}</text>` +
    `<text x="${plot.x + plot.w}" y="${plot.y + plot.h + 14}" font-size="10" text-anchor="end">${escape(labels[labels.length - 1] ?? "")}</text>` +
    `<text x="${width / 2}" y="${height - 8}" font-size="10" text-anchor="middle" fill="#616161">${legend}</text>` +
    `</svg>`
  );
}

function cellsOf(source: SeriesSource | null) {
  if (!source) return [];
  const { sheet, rect } = source;
  const cells: Array<[typeof sheet, number, number]> = [];
  for (let i = 0; i < rect.rows; i++) for (let j = 0; j < rect.columns; j++) cells.push([sheet, rect.row + i, rect.column + j]);
  return cells;
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);
}
