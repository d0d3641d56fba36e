// How a paged query's FROM is read part by part on an older version of a snapshot store
// (server/data/sql-where.ts): the paged table from each part, everything else as written.
import { partedFrom } from "../../src/server/data/sql-where";

test("the leading table is read from each part under its own alias, with the joins and WHERE as written", () => {
  expect(partedFrom("FROM tenancies t JOIN properties p ON p.id = t.property_id WHERE t.tenant_id = ?", ["co_1"])).toEqual({
    alias: "t",
    froms: [
      'FROM "tenancies kept" AS t JOIN properties p ON p.id = t.property_id WHERE t.tenant_id = ?',
      'FROM "tenancies replaced" AS t JOIN properties p ON p.id = t.property_id WHERE t.tenant_id = ?',
    ],
    params: ["co_1"],
  });
});

test("a table without an alias is aliased by its own name, so the query's references to it still resolve", () => {
  expect(partedFrom("FROM parcels WHERE state_code = ?", ["TX"])?.froms).toEqual([
    'FROM "parcels kept" AS parcels WHERE state_code = ?',
    'FROM "parcels replaced" AS parcels WHERE state_code = ?',
  ]);
  expect(partedFrom("FROM companies", [])?.alias).toBe("companies");
});

test("a FROM that starts with a subquery or a table-valued function is not read by parts", () => {
  expect(partedFrom("FROM (SELECT * FROM sales) WHERE nth = 1", [])).toBeUndefined();
  expect(partedFrom("FROM json_each(?) j JOIN companies c ON c.rowid = j.value", [])).toBeUndefined();
});
