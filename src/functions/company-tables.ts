// The list functions about companies: PROP.COMPANIES (owners, tenants, brokers, ...),
// PROP.PORTFOLIO (what an owner holds) and PROP.FOOTPRINT (where a tenant is).
import { ENDPOINTS } from "../shared/endpoints";
import { isBlank } from "./argument-parsers";
import { InputError } from "./excel-errors";
import { inputArg, type FunctionArg } from "./function-def";
import { COMPANY_TYPE_ARG } from "./function-args";
import { listFunction } from "./list-table";
import { checkParam } from "./param-values";

const COMPANY_ID = /^co_[A-Za-z0-9-]+$/i;

/** A company given by id ("co_...") or by name, as the endpoint's `<role>_id` or `<role>_name`. */
export function companyArg(raw: unknown, role: "owner" | "tenant"): Record<string, string> {
  if (isBlank(raw)) throw new InputError(`${role} is empty: give a company id such as co_0001a2b3, or a name.`);
  const text = String(raw).trim();
  const spec = ENDPOINTS[role === "owner" ? "getOwnerPortfolio" : "getTenantFootprint"].query;
  const name = COMPANY_ID.test(text) ? `${role}_id` : `${role}_name`;
  return {
    [name]: String(
      checkParam(
        spec.find((q) => q.name === name)!,
        text,
        role,
      ),
    ),
  };
}

/** PROP.COMPANIES: companies of one type, largest first. */
export const COMPANIES = listFunction({
  name: "COMPANIES",
  operation: "searchCompanies",
  resource: "company",
  args: [COMPANY_TYPE_ARG, inputArg("searchCompanies", { name: "name", label: "Name contains", required: false, input: "q" })],
  empty: (params) => `No ${params.company_type} companies match`,
});

/**
 * A name that several companies contain is refused (free, listing them) rather than resolved to
 * the largest: a cell must not silently report one of five "Silver Creek" owners. The spill's
 * owner (tenant) columns say which company was matched; name_match=best in the options takes
 * the largest instead.
 */
export function uniqueNameMatch(company: Record<string, unknown>): Record<string, string> | undefined {
  return Object.keys(company).some((k) => k.endsWith("_name")) ? { name_match: "unique" } : undefined;
}

/** An owner or tenant by id or name. */
function companyArgOf(role: "owner" | "tenant", help: string): FunctionArg {
  return {
    name: role,
    kind: "company",
    label: role === "owner" ? "Owner" : "Tenant",
    help,
    required: true,
    in: "query",
    read: (raw) => companyArg(raw, role),
  };
}

/** PROP.PORTFOLIO: the properties an owner holds, with the evidence for each. */
export const PORTFOLIO = listFunction({
  name: "PORTFOLIO",
  operation: "getOwnerPortfolio",
  resource: "portfolio_holding",
  args: [companyArgOf("owner", "Owner company id (co_0001a2b3) or name (exact, else the largest owner whose name contains it).")],
  empty: () => "No holdings match",
  defaults: uniqueNameMatch,
});

/** PROP.FOOTPRINT: every location a tenant occupies, soonest lease expiry first. */
export const FOOTPRINT = listFunction({
  name: "FOOTPRINT",
  operation: "getTenantFootprint",
  resource: "tenant_location",
  args: [companyArgOf("tenant", "Tenant company id (co_0001a2b3) or name (exact, else the largest tenant whose name contains it).")],
  empty: () => "No tenant locations match",
  defaults: uniqueNameMatch,
});
