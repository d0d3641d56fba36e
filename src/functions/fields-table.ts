// PROP.FIELDS(resource, [options]): the columns a resource's records have, with type and
// meaning and the label the pane shows (every function takes it as well as the name), so an analyst can pick `cols=` or a PROP.PROPERTY field without leaving Excel.
// Answered from the add-in's own copy of the contract: no request, no credits.
import { fieldLabel } from "./field-labels";
import { parseOptions } from "./options";
import { RESOURCES, resourceNamed } from "./record-fields";
import { HEADERS_OPTION, COLS_OPTION, shapeTable, tableOptions, type Cell } from "./table-shape";

const COLUMNS = ["field", "label", "type", "description"];

export function fieldsTable(rawResource: unknown, options: unknown): Cell[][] {
  const resource = resourceNamed(rawResource);
  const shape = tableOptions(parseOptions(options, [HEADERS_OPTION, COLS_OPTION]), COLUMNS, "fields");
  const rows = RESOURCES[resource].map((f) => ({ field: f.name, label: fieldLabel(f), type: f.type, description: f.description }));
  return shapeTable(rows, COLUMNS, shape, `${resource} has no fields.`);
}
