// Finding one company by id or by name, for the owner and tenant endpoints. A name picks the
// exact (case-insensitive) match if there is one, else the largest company whose name
// contains it; the response names the company chosen, so the user can see the pick.
import { ApiProblem, notFound } from "../http/problem";
import type { SnapshotContext } from "./snapshot-context";
import { containsPattern } from "./sql-where";

export interface CompanyRow {
  id: string;
  name: string;
  company_type: string;
  industry: string | null;
  property_count: number;
}

export function findCompany(
  snapshot: SnapshotContext,
  type: "owner" | "tenant",
  id: string | undefined,
  name: string | undefined,
): CompanyRow {
  const idParam = `${type}_id`;
  const nameParam = `${type}_name`;
  if (!id && !name) {
    throw new ApiProblem(400, "validation_failed", `Give ${idParam} or ${nameParam}.`, [
      { pointer: `/${idParam}`, parameter: idParam, detail: `${idParam} or ${nameParam} is required` },
    ]);
  }
  const row = id
    ? snapshot.get<CompanyRow>("SELECT * FROM companies WHERE id = ? AND company_type = ?", [id, type])
    : (snapshot.get<CompanyRow>("SELECT * FROM companies WHERE company_type = ? AND name = ? COLLATE NOCASE", [type, name]) ??
      snapshot.get<CompanyRow>(
        "SELECT * FROM companies WHERE company_type = ? AND name LIKE ? ESCAPE '\\' ORDER BY property_count DESC, id LIMIT 1",
        [type, containsPattern(name!)],
      ));
  if (!row) throw notFound(id ? `There is no ${type} '${id}'.` : `No ${type} name contains '${name}'.`);
  return row;
}
