// Renders the Markdown subset of the function reference, docs/functions.md (headings, rules,
// paragraphs, lists, tables, fenced code, `code`, **bold**, [links](...)), as HTML, so the
// service serves it at /docs/functions, where Excel's help links point. Every piece of text is
// escaped; links may only point within the page, within the site, or to http(s) addresses.
import { escapeHtml } from "./html";

export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\w\- ]+/g, "")
    .trim()
    .replace(/ /g, "-");
}

function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part.replace(/\\([|\\*_`[\]])/g, "$1"))
        .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, href: string) =>
          /^(#|\/(?!\/)|https?:\/\/)/.test(href) ? `<a href="${href}">${label}</a>` : label,
        );
    })
    .join("");
}

/** Cells of a table row, honouring `\|` inside cells and inside code spans. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((c) => c.trim());
}

export function renderMarkdown(md: string): string {
  const lines = md.split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
    } else if (line.startsWith("```")) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
      i++;
      out.push(`<pre><code>${escapeHtml(body.join("\n"))}</code></pre>`);
    } else if (/^-{3,}\s*$/.test(line)) {
      out.push("<hr>");
      i++;
    } else if (/^#{1,6} /.test(line)) {
      const level = line.indexOf(" ");
      const text = line.slice(level + 1).trim();
      out.push(`<h${level} id="${escapeHtml(slug(text))}">${inline(text)}</h${level}>`);
      i++;
    } else if (line.startsWith("|") && /^\|[\s:|-]+\|?$/.test(lines[i + 1] ?? "")) {
      const head = cells(line);
      const align = cells(lines[i + 1]).map((c) => (c.endsWith(":") ? ' class="num"' : ""));
      const rows: string[] = [];
      for (i += 2; i < lines.length && lines[i].startsWith("|"); i++) {
        rows.push(
          `<tr>${cells(lines[i])
            .map((c, j) => `<td${align[j] ?? ""}>${inline(c)}</td>`)
            .join("")}</tr>`,
        );
      }
      out.push(
        `<div class="table-wrap"><table><thead><tr>${head.map((c, j) => `<th scope="col"${align[j] ?? ""}>${inline(c)}</th>`).join("")}</tr></thead>` +
          `<tbody>${rows.join("")}</tbody></table></div>`,
      );
    } else if (/^[-*] /.test(line)) {
      const items: string[] = [];
      while (i < lines.length && (/^[-*] /.test(lines[i]) || (/^\s+\S/.test(lines[i]) && items.length))) {
        if (/^[-*] /.test(lines[i])) items.push(lines[i].slice(2));
        else items[items.length - 1] += " " + lines[i].trim();
        i++;
      }
      out.push(`<ul>${items.map((t) => `<li>${inline(t)}</li>`).join("")}</ul>`);
    } else {
      const para: string[] = [lines[i++].trim()];
      while (i < lines.length && lines[i].trim() !== "" && !/^(#{1,6} |```|\||[-*] )/.test(lines[i])) para.push(lines[i++].trim());
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}
