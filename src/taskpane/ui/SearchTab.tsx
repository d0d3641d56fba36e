// Search: pick what to search, fill the inputs the catalog says the data supports (an asset
// type enables its filters and says why the others are off), see what the preview costs,
// preview, then insert the rows as an Excel table or the equivalent PROP formula at the
// selection. A place the snapshot does not hold comes back with the places it does hold that
// were likely meant, as buttons that put one into the place field.
import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Button, Field, Select, Text } from "@fluentui/react-components";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { OPERATIONS } from "../../contract/operations";
import { DEFAULT_ROWS } from "../../functions/table-shape";
import { toCellRows } from "../cell-text";
import { insertCostText, isFetched, previewCostText } from "../search-cost";
import { checkSearch, formFor, type Catalog } from "../search-form";
import { SEARCH_KINDS, type SearchKind } from "../search-kinds";
import {
  CHART_OPTIONS,
  endpointCallFor,
  formulaFor,
  previewRows,
  type PreviewTable,
  type SearchAnswer,
  type SearchRequest,
} from "../search-request";
import { historyChartSpec, historyChoice } from "../chart-choices";
import { seriesOf } from "../line-chart";
import { LineChart } from "./LineChart";
import { PlacesChart } from "./PlacesChart";
import { ResultPreview } from "./ResultPreview";
import { SearchFieldInput } from "./SearchFieldInput";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useCacheVersion } from "./use-live-state";
import { useTask } from "./use-task";

const KINDS = Object.keys(SEARCH_KINDS) as SearchKind[];

/** The field a search's place is typed into (its suggestions go there): Place, or the comps' Subject. */
function placeField(kind: SearchKind): string | null {
  const place = SEARCH_KINDS[kind].positional.find((p) => p.arg.kind === "place" || p.arg.kind === "subject");
  return place?.field ?? null;
}

export function SearchTab() {
  const pane = usePane();
  const task = useTask();
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  const [kind, setKind] = useState<SearchKind>("salecomps");
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<{ request: SearchRequest; result: PreviewTable } | null>(null);
  const [moreOpen, setMoreOpen] = useState(false);
  /** The figure of a history preview its chart shows (a column of the spill); null: the first. */
  const [figure, setFigure] = useState<number | null>(null);
  const previewRef = useRef<HTMLDivElement>(null);

  // The catalog is free and cached: it says which inputs each asset type supports.
  useEffect(() => {
    if (!pane.connection) return;
    void task.run("Loading the catalog…", async () => {
      setCatalog(await pane.session.api.call(OPERATIONS.getCatalog, {}));
      return null;
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pane.connection?.baseUrl]);

  // Before the catalog arrives the selects show v1's fixed lists; it then narrows them.
  const form = useMemo(() => formFor(kind, catalog, values), [catalog, kind, values]);
  // The function's own arguments (and Rows) first; the filters that go into its options text
  // fold away under "More filters", so the form fits the pane.
  const argFields = new Set(SEARCH_KINDS[kind].positional.map((p) => p.field));
  const isPrimary = (name: string) => argFields.has(name) || name === "limit";
  const primary = form.fields.filter((f) => isPrimary(f.name));
  const more = form.fields.filter((f) => !isPrimary(f.name));

  // The price beside Preview follows the form and the cache (a formula may fetch the same result).
  useCacheVersion(pane.session);
  const checked = checkSearch(kind, values, catalog ?? undefined);
  const rowsAsked = checked.ok ? checked.request.limit : DEFAULT_ROWS;
  const fetched = checked.ok && pane.connection ? isFetched(pane.session.cache, pane.connection.baseUrl, checked.request) : null;
  const target = placeField(kind);
  const history = preview ? historyChoice(preview.request.kind, preview.result) : null;
  const charted = history ? (history.figures.find((f) => f.column === figure) ?? history.figures[0]) : null;

  // Show the results (and the Insert buttons) once they arrive.
  useEffect(() => {
    previewRef.current?.scrollIntoView({ block: "nearest" });
  }, [preview]);

  function choose(next: SearchKind) {
    setKind(next);
    setValues({});
    setErrors({});
    setPreview(null);
    setMoreOpen(false);
    task.clear();
  }

  function set(name: string, value: string) {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: "" }));
  }

  function search(event: FormEvent) {
    event.preventDefault();
    const checked = checkSearch(kind, values, catalog ?? undefined);
    if (!checked.ok) {
      setErrors(checked.errors);
      if (more.some((f) => checked.errors[f.name])) setMoreOpen(true);
      return;
    }
    setErrors({});
    void task.run("Searching…", async () => {
      // Through the functions' cache: the formula inserted afterwards answers from this result.
      const call = endpointCallFor(checked.request);
      const body = await pane.session.api.get<SearchAnswer>(call.spec, call.pathParams, call.query);
      const result = previewRows(checked.request, body);
      setPreview({ request: checked.request, result });
      setFigure(null);
      if (result.rows.length === 0) return { intent: "info", title: "No results", text: "Nothing matches; loosen a filter." };
      return null;
    });
  }

  /** A suggested place goes into the place field, ready to preview (a refusal cost nothing). */
  function takeSuggestion(place: string) {
    if (!target) return;
    set(target, place);
    task.clear();
  }

  function insertTable() {
    if (!preview) return;
    void task.run("Writing the table…", async () => {
      const rows = toCellRows([preview.result.header, ...preview.result.rows]);
      const address = await pane.workbook.insertTable(rows, { name: SEARCH_KINDS[preview.request.kind].fn });
      return { intent: "success", title: "Table inserted", text: `${preview.result.rows.length} rows at ${address}.` };
    });
  }

  function insertFormula() {
    if (!preview) return;
    void task.run("Writing the formula…", async () => {
      const formula = formulaFor(preview.request);
      const address = await pane.workbook.insertFormula(formula);
      return {
        intent: "success",
        title: "Formula inserted",
        text: `${formula} at ${address}. It answers from the results just fetched, at no extra cost.`,
      };
    });
  }

  /** The formula, as Insert as formula writes it, then a native line chart of the figure shown, bound to its spill. */
  function insertChart() {
    if (!preview || !history || !charted) return;
    void task.run("Writing the formula and its chart…", async () => {
      const formula = formulaFor(preview.request, CHART_OPTIONS);
      const address = await pane.workbook.insertFormula(formula);
      const name = await pane.workbook.insertChart(historyChartSpec(preview.request, preview.result, history, charted.column, address));
      const gaps = seriesOf(preview.result.rows, history.xColumn, charted.column).filter((p) => p.y === null).length;
      return {
        intent: "success",
        title: "Chart inserted",
        text:
          `${formula} at ${address}, and the chart "${name}" of ${charted.label} beside it, which follows the spill as it grows. ` +
          (gaps
            ? `${gaps} of the rows have no ${charted.label}: missing=na shows them as #N/A, a gap in the chart (AVERAGE over the column then needs AGGREGATE).`
            : ""),
      };
    });
  }

  return (
    <div className="tab-body">
      <Field label="Search for">
        <Select value={kind} onChange={(_, d) => choose(d.value as SearchKind)}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {SEARCH_KINDS[k].label}
            </option>
          ))}
        </Select>
      </Field>
      <form onSubmit={search} noValidate aria-label={SEARCH_KINDS[kind].label}>
        {primary.map((f) => (
          <SearchFieldInput key={f.name} field={f} value={values[f.name] ?? ""} error={errors[f.name]} onChange={set} />
        ))}
        {more.length > 0 && (
          <Accordion collapsible openItems={moreOpen ? ["more"] : []} onToggle={() => setMoreOpen((o) => !o)}>
            <AccordionItem value="more">
              <AccordionHeader size="small">More filters ({more.filter((f) => values[f.name]).length} set)</AccordionHeader>
              <AccordionPanel className="more-filters">
                {more.map((f) => (
                  <SearchFieldInput key={f.name} field={f} value={values[f.name] ?? ""} error={errors[f.name]} onChange={set} />
                ))}
              </AccordionPanel>
            </AccordionItem>
          </Accordion>
        )}
        <div className="actions">
          <Button appearance="primary" type="submit" disabled={task.busy || !pane.connection} aria-describedby="preview-cost">
            Preview
          </Button>
          <Text id="preview-cost" size={200} className="cost">
            {previewCostText(kind, rowsAsked, fetched)}
          </Text>
        </div>
      </form>
      {!pane.connection && <Text>Connect to search.</Text>}
      <TaskFeedback task={task}>
        {task.message?.suggestions && target && (
          <span className="suggestions" role="group" aria-label="Suggested places">
            <span>Did you mean:</span>
            {task.message.suggestions.map((place) => (
              <Button key={place} size="small" appearance="outline" onClick={() => takeSuggestion(place)}>
                {place}
              </Button>
            ))}
          </span>
        )}
      </TaskFeedback>
      {preview && preview.result.rows.length > 0 && (
        <div ref={previewRef} className="tab-body">
          <ResultPreview kind={preview.request.kind} table={preview.result} />
          {history && charted && (
            <>
              {history.figures.length > 1 && (
                <Field label="Chart">
                  <Select value={String(charted.column)} onChange={(_, d) => setFigure(Number(d.value))}>
                    {history.figures.map((f) => (
                      <option key={f.column} value={f.column}>
                        {f.label}
                      </option>
                    ))}
                  </Select>
                </Field>
              )}
              <LineChart points={seriesOf(preview.result.rows, history.xColumn, charted.column)} label={charted.label} />
            </>
          )}
          <div className="actions">
            <Button appearance="primary" onClick={insertTable} disabled={task.busy} aria-describedby="insert-cost">
              Insert
            </Button>
            <Button onClick={insertFormula} disabled={task.busy} aria-describedby="insert-cost">
              Insert as formula
            </Button>
            {history && (
              <Button onClick={insertChart} disabled={task.busy} aria-describedby="insert-cost">
                Insert chart
              </Button>
            )}
            <Text id="insert-cost" size={200} className="cost">
              {insertCostText()}
            </Text>
          </div>
          {preview.request.kind === "market" && (
            <PlacesChart geography={preview.request.values.geography ?? ""} assetType={preview.request.values.asset_type ?? ""} />
          )}
        </div>
      )}
    </div>
  );
}
