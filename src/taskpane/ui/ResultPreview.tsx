// The first rows of a search result, in the pane, before anything is written to the sheet:
// dates and rates as the cells will show them, a single record's figures labelled and first
// (preview-text.ts). Only a few columns fit at the pane's width; the inserted table has them all.
import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from "@fluentui/react-components";
import { previewView } from "../preview-text";
import type { SearchKind } from "../search-kinds";
import type { PreviewTable } from "../search-request";

const PREVIEW_ROWS = 8;
const PREVIEW_COLUMNS = 4;

export function ResultPreview({ kind, table }: { kind: SearchKind; table: PreviewTable }) {
  const view = previewView(kind, table);
  const columns = view.columns.slice(0, PREVIEW_COLUMNS);
  // A single record is read down: every field of it is shown.
  const rows = table.pairs ? view.rows : view.rows.slice(0, PREVIEW_ROWS);
  const total = table.total ?? table.rows.length;
  return (
    <div className="preview">
      <Text block size={200}>
        {table.pairs ? (
          <>
            {table.rows.length} fields, figures first. Insert writes them as the formula spills them: field names, in the formula&apos;s
            order.
          </>
        ) : (
          <>
            {table.rows.length.toLocaleString("en-US")} rows fetched
            {total > table.rows.length ? ` of ${total.toLocaleString("en-US")} matching` : ""}; {table.header.length} columns
            {table.header.length > PREVIEW_COLUMNS ? ` (the first ${PREVIEW_COLUMNS} shown here)` : ""}.
          </>
        )}
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
            {rows.map((row, i) => (
              <TableRow key={row.field ?? i}>
                {columns.map((c, j) => (
                  <TableCell key={c} title={j === 0 && row.field ? row.field : undefined}>
                    {row.cells[j]}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
