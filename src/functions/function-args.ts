// The positional arguments several PROP functions share, as FunctionArg objects: a place, an
// asset type, a company type, a property id. Each reads a cell with the parser the functions
// always used (argument-parsers.ts), so a function and the pane's field for it agree.
import { ENDPOINTS, type OperationId, type ParamSpec } from "../shared/endpoints";
import { NATIONAL_PLACE, isNational } from "../contract/places";
import { ASSET_TYPE, COMPANY_TYPE, assetTypeArg, companyTypeArg, isBlank, placeArg } from "./argument-parsers";
import { inputSpec, type FunctionArg } from "./function-def";
import { checkParam } from "./param-values";

type Shown = Partial<Pick<FunctionArg, "label" | "help">>;

/**
 * A place in any form of the place grammar, as the operation's `geography` input; `national`:
 * the whole country ("US", "United States", "national") too, as the market functions take it.
 */
export function placeArgOf(operation: OperationId, opts: { required: boolean; national?: boolean; name?: string } & Shown): FunctionArg {
  const param = inputSpec(operation, "geography");
  const name = opts.name ?? "geography";
  return {
    name,
    kind: "place",
    label: opts.label ?? "Place",
    help: opts.help ?? param.help,
    required: opts.required,
    input: "geography",
    in: "query",
    param,
    read: (raw, label = name): Record<string, string> => {
      if (!opts.required && isBlank(raw)) return {};
      if (opts.national && isNational(raw)) return { geography: NATIONAL_PLACE };
      return placeArg(raw, ENDPOINTS[operation], label);
    },
  };
}

/** An asset type in any of its spellings, as a query input or (`in: "path"`) the path parameter. */
export function assetTypeArgOf(operation: OperationId, opts: { required: boolean; in?: "path" | "query" } & Shown): FunctionArg {
  // The path parameter has no ParamSpec of its own; its values are the cross-asset search's.
  const param = opts.in === "path" ? ASSET_TYPE : inputSpec(operation, "asset_type");
  return {
    name: "asset_type",
    kind: "asset_type",
    label: opts.label ?? "Asset type",
    help: opts.help ?? param.help,
    required: opts.required,
    input: "asset_type",
    in: opts.in ?? "query",
    param,
    read: (raw): Record<string, string> => (!opts.required && isBlank(raw) ? {} : { asset_type: assetTypeArg(raw) }),
  };
}

/** PROP.COMPANIES's company type, the path parameter. */
export const COMPANY_TYPE_ARG: FunctionArg = {
  name: "company_type",
  kind: "company_type",
  label: "Company type",
  help: COMPANY_TYPE.help,
  required: true,
  input: "company_type",
  in: "path",
  param: COMPANY_TYPE,
  read: (raw) => ({ company_type: companyTypeArg(raw) }),
};

const PROPERTY_ID: ParamSpec = { name: "property_id", kind: "property_id", help: "A property id, such as cp_0001a2b3." };

/** A property id, the path parameter of a property's own endpoints. */
export const PROPERTY_ID_ARG: FunctionArg = {
  name: "property_id",
  kind: "property_id",
  label: "Property id",
  help: "A property id, such as cp_0001a2b3 (a search result's id column).",
  required: true,
  input: "property_id",
  in: "path",
  param: PROPERTY_ID,
  read: (raw) => ({ property_id: propertyIdArg(raw) }),
};

export function propertyIdArg(raw: unknown): string {
  return String(checkParam(PROPERTY_ID, raw, "property_id"));
}
