// Finding one company by id or by name, for the owner and tenant endpoints. A name picks the
// exact (case-insensitive) match if there is one, else a company whose name contains it; the
// response names the company chosen and how many matched, so the user can see the pick.
import type { Company } from "../../contract/records";
import type { CompanySummary } from "../../contract/responses";
import { ApiProblem, notFound } from "../http/problem";
import type { SnapshotContext } from "./snapshot-context";
import { companyNameIndex } from "./company-names";
import { containsPattern } from "./sql-where";

export type CompanyRow = Pick<Company, "id" | "name" | "company_type" | "industry" | "property_count">;

/** How a company was found, for the answer to say (a name may match several). */
export type CompanyMatch = Pick<CompanySummary, "matched_by" | "candidate_count" | "other_candidates">;

const MAX_CANDIDATES_SHOWN = 5;
/** The most companies a name's containment search reads (an ambiguous name says "200 or more"). */
const MAX_CONTAINING = 200;

/**
 * The companies of a type whose name contains `name` (ASCII letters without case), the most
 * properties first: through the name index, or a LIKE scan for a name under three characters.
 */
function companiesContaining(snapshot: SnapshotContext, type: string, name: string): CompanyRow[] {
  const rowids = companyNameIndex(snapshot, type).containing(name, MAX_CONTAINING);
  if (rowids === undefined) {
    return snapshot.all<CompanyRow>(
      `SELECT * FROM companies WHERE company_type = ? AND name LIKE ? ESCAPE '\\' ORDER BY property_count DESC, id LIMIT ${MAX_CONTAINING}`,
      [type, containsPattern(name)],
    );
  }
  if (rowids.length === 0) return [];
  // json_each keeps one statement for any number of rowids, and its key keeps the index's order.
  return snapshot.all<CompanyRow>("SELECT c.* FROM json_each(?) j JOIN companies c ON c.rowid = j.value ORDER BY j.key", [
    JSON.stringify(rowids),
  ]);
}

/**
 * One company by id, or by name: the exact (case-insensitive) name, else the names containing
 * it. With several matches, `best` takes the one with the most properties and `unique` refuses
 * free of charge (400 ambiguous_name), listing them.
 */
export function findCompany(
  snapshot: SnapshotContext,
  type: "owner" | "tenant",
  id: string | undefined,
  name: string | undefined,
  nameMatch: "best" | "unique" = "best",
): { company: CompanyRow; match: CompanyMatch } {
  const idParam = `${type}_id`;
  const nameParam = `${type}_name`;
  if (!id && !name) {
    throw new ApiProblem(400, "validation_failed", `Give ${idParam} or ${nameParam}.`, [
      { pointer: `/${idParam}`, parameter: idParam, detail: `${idParam} or ${nameParam} is required` },
    ]);
  }
  if (id) {
    const row = snapshot.get<CompanyRow>("SELECT * FROM companies WHERE id = ? AND company_type = ?", [id, type]);
    if (!row) throw notFound(`There is no ${type} '${id}'.`);
    return { company: row, match: { matched_by: "id", candidate_count: 1, other_candidates: [] } };
  }
  const order = "ORDER BY property_count DESC, id";
  let matchedBy: CompanyMatch["matched_by"] = "exact_name";
  let rows = snapshot.all<CompanyRow>(`SELECT * FROM companies WHERE company_type = ? AND name = ? COLLATE NOCASE ${order}`, [type, name]);
  if (rows.length === 0) {
    matchedBy = "name_contains";
    rows = companiesContaining(snapshot, type, name!);
  }
  if (rows.length === 0) throw notFound(`No ${type} name contains '${name}'.`);
  const others = rows.slice(1, 1 + MAX_CANDIDATES_SHOWN).map((r) => ({ id: r.id, name: r.name, property_count: r.property_count }));
  if (rows.length > 1 && nameMatch === "unique") {
    const listed = rows.slice(0, MAX_CANDIDATES_SHOWN).map((r) => `${r.name} (${r.id}, ${r.property_count} properties)`);
    const detail =
      `${nameParam} "${name}" matches ${rows.length === MAX_CONTAINING ? `${MAX_CONTAINING} or more` : rows.length} ${type}s: ${listed.join("; ")}${rows.length > MAX_CANDIDATES_SHOWN ? "; ..." : ""}. ` +
      `Give the ${type}'s id or its full name.`;
    throw new ApiProblem(400, "ambiguous_name", detail, [{ pointer: `/${nameParam}`, parameter: nameParam, detail }], {
      candidates: rows.slice(0, MAX_CANDIDATES_SHOWN).map((r) => ({ id: r.id, name: r.name, property_count: r.property_count })),
      candidate_count: rows.length,
    });
  }
  return { company: rows[0], match: { matched_by: matchedBy, candidate_count: rows.length, other_candidates: others } };
}
