// The company name index answers as the LIKE scan it replaces: the same companies, in the same
// order (most properties first, then id), ASCII letters compared without case and no others.
import Database from "better-sqlite3";
import { CompanyNameIndex, companyNameIndex } from "../../src/server/data/company-names";
import { openContext } from "../../src/server/data/snapshot-context";
import { containsPattern } from "../../src/server/data/sql-where";
import { snapshotPath } from "../helpers/service";

const LIKE = "SELECT rowid FROM companies WHERE company_type = ? AND name LIKE ? ESCAPE '\\' ORDER BY property_count DESC, id LIMIT ?";

function likeRowids(db: Database.Database, type: string, text: string, limit = 200): number[] {
  return db.prepare(LIKE).pluck().all(type, containsPattern(text), limit) as number[];
}

describe("against SQLite's LIKE on names written to catch folding and escaping", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE companies (id TEXT, company_type TEXT, name TEXT, property_count INTEGER)");
  const names = [
    "Café Élan Holdings",
    "CAFÉ ÉLAN",
    "Straße Partners",
    "100% Real Estate",
    "Under_Score Capital",
    "Back\\Slash Trust",
    "aaaa",
    "Acme Acme Acme",
    "acme retail",
    "ACME Logistics",
  ];
  const insert = db.prepare("INSERT INTO companies VALUES (?, 'owner', ?, ?)");
  names.forEach((name, i) => insert.run(`co_${i}`, name, i % 3));
  const rows = db.prepare("SELECT rowid, name FROM companies WHERE company_type = 'owner' ORDER BY property_count DESC, id").all() as {
    rowid: number;
    name: string;
  }[];
  const index = new CompanyNameIndex(rows);

  test.each([
    "acme",
    "ACME",
    "cme a",
    "café",
    "CAFÉ",
    "Élan",
    "élan",
    "straße",
    "STRASSE",
    "0% R",
    "r_s",
    "_Sc",
    "k\\S",
    "aaa",
    "aaaa",
    "aaaaa",
    "zzz",
  ])("%p: the same companies in the same order", (text) => {
    expect(index.containing(text, 200)).toEqual(likeRowids(db, "owner", text));
  });

  test("the limit keeps the first companies by rank", () => {
    expect(index.containing("acme", 2)).toEqual(likeRowids(db, "owner", "acme", 2));
  });

  test("a text under three characters is left to the scan", () => {
    expect(index.containing("ac", 200)).toBeUndefined();
  });
});

describe("against the test snapshot", () => {
  const snapshot = openContext(snapshotPath());
  afterAll(() => snapshot.close());

  test.each(["owner", "tenant"])("%s: every piece of every name, and pieces of none, answer as LIKE", (type) => {
    const names = snapshot.db.prepare("SELECT name FROM companies WHERE company_type = ?").pluck().all(type) as string[];
    expect(names.length).toBeGreaterThan(10);
    const texts = new Set<string>(["Zephyr Quay Holdings", "zzz", "%%%", "___"]);
    names.forEach((name, i) => {
      const start = i % Math.max(1, name.length - 3);
      const piece = name.slice(start, start + 3 + (i % 9));
      texts.add(piece);
      texts.add(i % 2 ? piece.toUpperCase() : piece.toLowerCase());
      texts.add(name.split(" ")[0]);
    });
    const index = companyNameIndex(snapshot, type);
    for (const text of texts) {
      if (text.length < 3) continue;
      expect([text, index.containing(text, 200)]).toEqual([text, likeRowids(snapshot.db, type, text)]);
    }
  });
});
