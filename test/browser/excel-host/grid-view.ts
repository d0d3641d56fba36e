// A small picture of the active sheet (A1:H24 by default) fixed to the right of the task pane,
// so a screenshot of the page shows the pane and the cells it acts on side by side: column
// letters and row numbers, the selection, spilled cells, tables, comments, errors in red.
import { cellAddress, columnLetters, contains } from "./addresses";
import { chartMarkup } from "./grid-charts";
import { type WorkbookModel, isError, isFormatted, key, shownFormat, shownText as display } from "./workbook-model";

const PANE_WIDTH = 360;

const CSS = `
body > main, #root { width: ${PANE_WIDTH}px; max-width: ${PANE_WIDTH}px; box-sizing: border-box; }
#excel-host-grid { position: fixed; top: 0; bottom: 0; left: ${PANE_WIDTH + 40}px; right: 0; overflow: auto; background: #fff;
  border-left: 1px solid #c8c8c8; font: 12px "Segoe UI", system-ui, sans-serif; color: #242424; z-index: 2147483647; }
#excel-host-grid table { border-collapse: collapse; table-layout: fixed; }
#excel-host-grid th { background: #f3f3f3; color: #616161; font-weight: normal; border: 1px solid #d4d4d4; padding: 2px 4px; }
#excel-host-grid td { border: 1px solid #e1e1e1; padding: 2px 4px; max-width: 140px; min-width: 56px; height: 18px;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; position: relative; }
#excel-host-grid td.num { text-align: right; }
#excel-host-grid td.error { color: #c50f1f; font-weight: 600; }
#excel-host-grid td.spill { background: #f0f6ff; }
#excel-host-grid td.anchor { box-shadow: inset 3px 0 0 #0f6cbd; }
#excel-host-grid td.table { background: #eaf3ea; }
#excel-host-grid td.table-header { background: #217346; color: #fff; font-weight: 600; }
#excel-host-grid td.selected { outline: 2px solid #107c41; outline-offset: -2px; background-color: #e6f2ea; }
#excel-host-grid td.comment::after { content: ""; position: absolute; top: 0; right: 0; border: 4px solid transparent;
  border-top-color: #c239b3; border-right-color: #c239b3; }
#excel-host-grid .tabs { display: flex; gap: 2px; padding: 4px; border-top: 1px solid #d4d4d4; }
#excel-host-grid .tab { padding: 2px 10px; background: #f3f3f3; }
#excel-host-grid .tab.active { background: #fff; border-bottom: 2px solid #107c41; font-weight: 600; }
#excel-host-grid .bar { padding: 4px 6px; border-bottom: 1px solid #d4d4d4; font-family: Consolas, monospace; min-height: 16px; }
`;

export interface GridView {
  setVisible(visible: boolean): void;
}

export function createGridView(model: WorkbookModel, size = { rows: 24, columns: 8 }): GridView {
  let container: HTMLElement | null = null;
  let scheduled = false;

  const render = () => {
    scheduled = false;
    if (!container) return;
    const sheet = model.active;
    const { selection } = sheet;
    const parts: string[] = [];
    const top = sheet.cells.get(key(selection.row, selection.column));
    const topShown = model.shown(sheet, selection.row, selection.column);
    parts.push(
      `<div class="bar">${escape(cellAddress(selection.row, selection.column))}&nbsp;&nbsp;${escape(String(top?.formula ?? display(topShown, shownFormat(topShown, top))))}</div>`,
    );
    parts.push('<div class="sheet" style="position:relative"><table><tr><th></th>');
    for (let c = 0; c < size.columns; c++) parts.push(`<th>${columnLetters(c)}</th>`);
    parts.push("</tr>");
    for (let r = 0; r < size.rows; r++) {
      parts.push(`<tr><th>${r + 1}</th>`);
      for (let c = 0; c < size.columns; c++) {
        const shown = model.shown(sheet, r, c);
        const cell = sheet.cells.get(key(r, c));
        const spill = model.spillAt(sheet, r, c);
        const table = model.tables.find((t) => t.sheet === sheet && contains(t.rect, r, c));
        const classes = [
          typeof shown === "number" || isFormatted(shown) ? "num" : "",
          isError(shown) ? "error" : "",
          spill ? "spill" : "",
          cell?.formula !== undefined ? "anchor" : "",
          table ? (r === table.rect.row ? "table-header" : "table") : "",
          contains(selection, r, c) ? "selected" : "",
          model.comments.some((m) => m.sheet === sheet && m.row === r && m.column === c) ? "comment" : "",
        ].filter(Boolean);
        const style = `${cell?.bold ? "font-weight:600;" : ""}${cell?.italic ? "font-style:italic;" : ""}`;
        const title = isError(shown) && shown.message ? ` title="${escape(shown.message)}"` : "";
        parts.push(`<td class="${classes.join(" ")}" style="${style}"${title}>${escape(display(shown, shownFormat(shown, cell)))}</td>`);
      }
      parts.push("</tr>");
    }
    parts.push('</table></div><div class="tabs">');
    for (const s of model.sheets) parts.push(`<span class="tab${s === sheet ? " active" : ""}">${escape(s.name)}</span>`);
    parts.push("</div>");
    container.innerHTML = parts.join("");
    drawCharts(container, sheet);
  };

  /** Each chart of the sheet over the cell it was placed at (past the drawn columns: at their right edge). */
  const drawCharts = (into: HTMLElement, sheet: WorkbookModel["active"]) => {
    const table = into.querySelector("table");
    const holder = into.querySelector(".sheet");
    if (!table || !holder) return;
    for (const chart of model.charts.filter((c) => c.sheet === sheet)) {
      const row = table.rows[Math.min(chart.at.row, size.rows - 1) + 1];
      const cell = row?.cells[Math.min(chart.at.column, size.columns - 1) + 1];
      if (!cell) continue;
      const left = chart.at.column < size.columns ? cell.offsetLeft : cell.offsetLeft + cell.offsetWidth;
      holder.insertAdjacentHTML("beforeend", chartMarkup(model, chart, left, cell.offsetTop));
    }
  };

  const schedule = () => {
    if (scheduled || !container) return;
    scheduled = true;
    setTimeout(render, 0);
  };
  model.onView(schedule);

  const mount = () => {
    if (container) return;
    const style = document.createElement("style");
    style.textContent = CSS;
    document.head.appendChild(style);
    container = document.createElement("aside");
    container.id = "excel-host-grid";
    container.setAttribute("aria-label", "Stand-in Excel sheet");
    document.body.appendChild(container);
    render();
  };

  return {
    setVisible(visible) {
      if (visible && !container) {
        if (document.body) mount();
        else document.addEventListener("DOMContentLoaded", mount, { once: true });
      } else if (!visible && container) {
        container.remove();
        container = null;
      }
    },
  };
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);
}
