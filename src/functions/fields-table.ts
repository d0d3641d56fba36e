// PROP.FIELDS(resource, [options]): the columns a resource's records have, with type and
// meaning and the label the pane shows (every function takes it as well as the name), so an analyst can pick `cols=` or a PROP.PROPERTY field without leaving Excel.
// Answered from the add-in's own copy of the contract: no request, no credits.
import { fieldLabel } from "./field-labels";
import type { FunctionArg, FunctionDef } from "./function-def";
import { parseOptions } from "./options";
import { RESOURCES, resourceNamed, type ResourceName } from "./record-fields";
import { HEADERS_OPTION, COLS_OPTION, shapeTable, tableOptions, type Cell } from "./table-shape";

const COLUMNS = ["field", "label", "type", "description"];

/** The resource whose fields are listed: read by the function, not sent. */
const RESOURCE_ARG: FunctionArg = {
  name: "resource",
  kind: "name",
  label: "Resource",
  help: 'A resource, such as "property", "sale_comp" or "market".',
  required: true,
  in: "query",
  read: (raw) => {
    resourceNamed(raw);
    return {};
  },
};

/**
 * PROP.FIELDS: its operation is null, as it calls none. Its answer is the resource's fields
 * from the contract the add-in is built with (record-fields.ts), which are the fields the
 * service's records have, so asking the service would only cost a round trip.
 */
export const FIELDS: FunctionDef<(typeof RESOURCES)[ResourceName], null> = {
  name: "FIELDS",
  operation: null,
  args: [RESOURCE_ARG],
  request(args, options) {
    resourceNamed(args[0]);
    const parsed = parseOptions(options, [HEADERS_OPTION, COLS_OPTION]);
    tableOptions(parsed, COLUMNS, "fields");
    return { operation: null, params: {}, query: {}, options: parsed, args };
  },
  table(fields, call) {
    const shape = tableOptions(call.options, COLUMNS, "fields");
    const rows = fields.map((f) => ({ field: f.name, label: fieldLabel(f), type: f.type, description: f.description }));
    return shapeTable(rows, COLUMNS, shape, `${resourceNamed(call.args[0])} has no fields.`);
  },
};

export function fieldsTable(rawResource: unknown, options: unknown): Cell[][] {
  const call = FIELDS.request([rawResource], options);
  return FIELDS.table(RESOURCES[resourceNamed(rawResource)], call);
}
