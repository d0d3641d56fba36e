// The first rows of a search result, in the pane, before anything is written to the sheet.
// Only a few columns fit at the pane's width; the inserted table has them all.
import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from "@fluentui/react-components";

export interface Preview {
  header: string[];
  rows: unknown[][];
  total: number | null;
}

const PREVIEW_ROWS = 8;
const PREVIEW_COLUMNS = 4;

export function ResultPreview({ preview }: { preview: Preview }) {
  const columns = preview.header.slice(0, PREVIEW_COLUMNS);
  const total = preview.total ?? preview.rows.length;
  return (
    <div className="preview">
      <Text block size={200}>
        {preview.rows.length.toLocaleString("en-US")} rows fetched
        {total > preview.rows.length ? ` of ${total.toLocaleString("en-US")} matching` : ""}; {preview.header.length} columns
        {preview.header.length > PREVIEW_COLUMNS ? ` (the first ${PREVIEW_COLUMNS} shown here)` : ""}.
      </Text>
      <div className="preview-scroll">
        <Table size="extra-small" aria-label="Preview of the results">
          <TableHeader>
            <TableRow>
              {columns.map((c) => (
                <TableHeaderCell key={c}>{c}</TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.rows.slice(0, PREVIEW_ROWS).map((row, i) => (
              <TableRow key={i}>
                {columns.map((c, j) => (
                  <TableCell key={c}>{formatCell(row[j])}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return String(value);
}
