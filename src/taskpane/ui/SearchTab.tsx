// Search: pick what to search, fill the inputs the catalog says the data supports (an asset
// type enables its filters and says why the others are off), preview, then insert the rows as
// an Excel table or the equivalent PROP formula at the selection.
import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Button, Field, Select, Text } from "@fluentui/react-components";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { ENDPOINTS } from "../../shared/endpoints";
import { toCellRows } from "../cell-text";
import { checkSearch, formFor, type Catalog } from "../search-form";
import { SEARCH_KINDS, type SearchKind } from "../search-kinds";
import { endpointCallFor, formulaFor, previewRows, type SearchRequest } from "../search-request";
import { ResultPreview, type Preview } from "./ResultPreview";
import { SearchFieldInput } from "./SearchFieldInput";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

const KINDS = Object.keys(SEARCH_KINDS) as SearchKind[];

export function SearchTab() {
  const pane = usePane();
  const task = useTask();
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  const [kind, setKind] = useState<SearchKind>("salecomps");
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<{ request: SearchRequest; result: Preview } | null>(null);
  const [moreOpen, setMoreOpen] = useState(false);
  const previewRef = useRef<HTMLDivElement>(null);

  // The catalog is free and cached: it says which inputs each asset type supports.
  useEffect(() => {
    if (!pane.connection) return;
    void task.run("Loading the catalog…", async () => {
      setCatalog(await pane.session.api.get<Catalog>(ENDPOINTS.getCatalog, {}, {}));
      return null;
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pane.connection?.baseUrl]);

  // Before the catalog arrives the selects show v1's fixed lists; it then narrows them.
  const form = useMemo(() => formFor(kind, catalog, values), [catalog, kind, values]);
  // The function's own arguments (and Rows) first; the filters that go into its options text
  // fold away under "More filters", so the form fits the pane.
  const argFields = new Set(SEARCH_KINDS[kind].args.map((a) => ("field" in a ? a.field : "")));
  const isPrimary = (name: string) => argFields.has(name) || name === "limit";
  const primary = form.fields.filter((f) => isPrimary(f.name));
  const more = form.fields.filter((f) => !isPrimary(f.name));

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
      const body = await pane.session.api.get<unknown>(call.spec, call.pathParams, call.query);
      const result = previewRows(checked.request.kind, body);
      setPreview({ request: checked.request, result });
      if (result.rows.length === 0) return { intent: "info", title: "No results", text: "Nothing matches; loosen a filter." };
      return null;
    });
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
      return { intent: "success", title: "Formula inserted", text: `${formula} at ${address}. It answers from the results just fetched, at no extra cost.` };
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
            <Button appearance="primary" type="submit" disabled={task.busy || !pane.connection}>
              Preview
            </Button>
          </div>
      </form>
      {!pane.connection && <Text>Connect to search.</Text>}
      <TaskFeedback task={task} />
      {preview && preview.result.rows.length > 0 && (
        <div ref={previewRef} className="tab-body">
          <ResultPreview preview={preview.result} />
          <div className="actions">
            <Button appearance="primary" onClick={insertTable} disabled={task.busy}>
              Insert
            </Button>
            <Button onClick={insertFormula} disabled={task.busy}>
              Insert as formula
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
