// The list functions about companies: PROP.COMPANIES (owners, tenants, brokers, ...),
// PROP.PORTFOLIO (what an owner holds) and PROP.FOOTPRINT (where a tenant is).
import { ENDPOINTS } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { companyTypeArg, isBlank } from "./argument-parsers";
import { InputError } from "./excel-errors";
import { listTable } from "./list-table";
import { checkParam } from "./param-values";
import type { Cell } from "./table-shape";

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
export function companies(companyType: unknown, name: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const company_type = companyTypeArg(companyType);
  const q = ENDPOINTS.searchCompanies.query.find((s) => s.name === "q")!;
  return listTable(
    {
      spec: ENDPOINTS.searchCompanies,
      pathParams: { company_type },
      positional: isBlank(name) ? {} : { q: checkParam(q, name, "name") },
      options,
      resource: "company",
      empty: `No ${company_type} companies match`,
    },
    ctx,
  );
}

/**
 * A name that several companies contain is refused (free, listing them) rather than resolved to
 * the largest: a cell must not silently report one of five "Silver Creek" owners. The spill's
 * owner (tenant) columns say which company was matched; name_match=best in the options takes
 * the largest instead.
 */
export function uniqueNameMatch(company: Record<string, string>): Record<string, string> | undefined {
  return Object.keys(company).some((k) => k.endsWith("_name")) ? { name_match: "unique" } : undefined;
}

/** PROP.PORTFOLIO: the properties an owner holds, with the evidence for each. */
export function portfolio(owner: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = companyArg(owner, "owner");
  return listTable(
    {
      spec: ENDPOINTS.getOwnerPortfolio,
      positional,
      options,
      resource: "portfolio_holding",
      empty: "No holdings match",
      defaults: uniqueNameMatch(positional),
    },
    ctx,
  );
}

/** PROP.FOOTPRINT: every location a tenant occupies, soonest lease expiry first. */
export function footprint(tenant: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = companyArg(tenant, "tenant");
  return listTable(
    {
      spec: ENDPOINTS.getTenantFootprint,
      positional,
      options,
      resource: "tenant_location",
      empty: "No tenant locations match",
      defaults: uniqueNameMatch(positional),
    },
    ctx,
  );
}
