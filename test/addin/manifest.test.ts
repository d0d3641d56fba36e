// Contract tests for manifest.xml: every resid resolves, every URL it names exists (in the
// build, or as a page of the service), and the shared-runtime wiring (one page for functions,
// pane and commands) holds.
import * as fs from "node:fs";
import * as path from "node:path";
import { ancestorNames, descendants, parseXml, type XmlElement } from "./xml-walk";
import { DIST, ROOT, ensureAddinBuild, readDist } from "./addin-build";
import { startService } from "../helpers/service";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- webpack.config.js is CommonJS, read as webpack reads it
const webpackConfig = require("../../webpack.config.js") as {
  addinOrigin(value?: string): string;
  manifestForOrigin(xml: string, origin: string): string;
};

const SOURCE_ORIGIN = "http://localhost:3000";

function load(xml: string) {
  const all = descendants(parseXml(xml));
  const resources = all.filter((el) => el.attributes.id !== undefined && ancestorNames(el).includes("Resources"));
  return { all, resources, byName: (name: string) => all.filter((el) => el.name === name) };
}

/** Which kind of resource each resid-bearing element must point at. */
function expectedResourceKind(el: XmlElement): string {
  if (el.name === "bt:Image") return "bt:Image";
  if (["SourceLocation", "Runtime", "FunctionFile", "LearnMoreUrl"].includes(el.name)) return "bt:Url";
  return "bt:String";
}

describe("manifest.xml (source)", () => {
  const source = fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8");
  const { all, resources, byName } = load(source);

  test("has a fixed GUID id and targets Excel", () => {
    expect(byName("Id")[0].text.trim()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(byName("Host").map((h) => h.attributes.Name ?? h.attributes["xsi:type"])).toEqual(["Workbook", "Workbook"]);
  });

  test("every resid resolves to a resource of the right kind, and resids fit Office's 32-character limit", () => {
    const ids = new Map(resources.map((el) => [el.attributes.id, el.name]));
    const users = all.filter((el) => el.attributes.resid !== undefined);
    expect(users.length).toBeGreaterThan(10);
    for (const el of users) {
      const resid = el.attributes.resid;
      expect({ resid, kind: ids.get(resid) }).toEqual({ resid, kind: expectedResourceKind(el) });
      expect(resid.length).toBeLessThanOrEqual(32);
    }
  });

  test("resource ids are unique and every resource is used", () => {
    const ids = resources.map((el) => el.attributes.id);
    expect(new Set(ids).size).toBe(ids.length);
    const used = new Set(all.map((el) => el.attributes.resid).filter(Boolean));
    expect(ids.filter((id) => !used.has(id))).toEqual([]);
  });

  test("strings fit Office's limits (short 125, long 250 characters)", () => {
    for (const el of resources.filter((r) => r.name === "bt:String")) {
      const limit = ancestorNames(el).includes("bt:LongStrings") ? 250 : 125;
      expect(el.attributes.DefaultValue.length).toBeLessThanOrEqual(limit);
    }
  });

  test("uses the shared runtime: one long-lived page for functions, pane and ribbon commands", () => {
    const sets = byName("Set").map((s) => `${s.attributes.Name} ${s.attributes.MinVersion}`);
    expect(sets).toContain("SharedRuntime 1.1");
    const [runtime] = byName("Runtime");
    expect(runtime.attributes.lifetime).toBe("long");
    const page = byName("Page")[0].children.find((c) => c.name === "SourceLocation")!;
    expect(page.attributes.resid).toBe(runtime.attributes.resid);
    expect(byName("FunctionFile")[0].attributes.resid).toBe(runtime.attributes.resid);
    const showPane = byName("Action").find((a) => a.attributes["xsi:type"] === "ShowTaskpane")!;
    expect(showPane.children.find((c) => c.name === "SourceLocation")!.attributes.resid).toBe(runtime.attributes.resid);
  });

  test("declares the PROP namespace and the three ribbon buttons: Show pane, Refresh workbook, Explain cell", () => {
    const namespaceId = byName("Namespace")[0].attributes.resid;
    expect(resources.find((r) => r.attributes.id === namespaceId)!.attributes.DefaultValue).toBe("PROP");
    const actions = byName("Action").map((a) => a.attributes["xsi:type"]);
    expect(actions.sort()).toEqual(["ExecuteFunction", "ExecuteFunction", "ShowTaskpane"]);
    const functions = byName("FunctionName").map((f) => f.text.trim());
    expect(functions.sort()).toEqual(["explainCell", "refreshWorkbook"]);
  });

  test("is written with the default origin only, so the build can rewrite it", () => {
    const origins = new Set(
      [...source.matchAll(/https?:\/\/[\w.-]+(?::\d+)?/g)]
        .map((m) => m[0])
        .filter((o) => !o.includes("schemas.microsoft.com") && !o.includes("www.w3.org")),
    );
    expect([...origins]).toEqual([SOURCE_ORIGIN]);
  });
});

describe("ADDIN_ORIGIN", () => {
  test("defaults to http://localhost:3000 and accepts a bare origin", () => {
    expect(webpackConfig.addinOrigin(undefined)).toBe(SOURCE_ORIGIN);
    expect(webpackConfig.addinOrigin("https://localhost:3000/")).toBe("https://localhost:3000");
    expect(webpackConfig.addinOrigin("https://prop.example.com")).toBe("https://prop.example.com");
  });

  test("rejects anything but an origin", () => {
    expect(() => webpackConfig.addinOrigin("https://prop.example.com/addin")).toThrow(/just an origin/);
    expect(() => webpackConfig.addinOrigin("localhost:3000")).toThrow(/origin/);
    expect(() => webpackConfig.addinOrigin("ftp://prop.example.com")).toThrow(/origin/);
  });

  test("rewrites every URL of the manifest and keeps the /addin/ paths", () => {
    const source = fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8");
    const rewritten = webpackConfig.manifestForOrigin(source, "https://prop.example.com");
    expect(rewritten).not.toContain(SOURCE_ORIGIN);
    expect(rewritten).toContain('DefaultValue="https://prop.example.com/addin/taskpane.html"');
  });
});

describe("manifest.xml (built)", () => {
  beforeAll(() => ensureAddinBuild(), 240_000);

  test("every URL it names is under one origin: a file of dist/addin under /addin/, or a page the service serves", async () => {
    const { all } = load(readDist("manifest.xml"));
    const urls = all.map((el) => el.attributes.DefaultValue).filter((v): v is string => /^https?:\/\//.test(v ?? ""));
    expect(urls.length).toBeGreaterThanOrEqual(7);
    const origins = new Set(urls.map((u) => new URL(u).origin));
    expect(origins.size).toBe(1);
    const pages = urls.filter((u) => !new URL(u).pathname.startsWith("/addin/"));
    for (const url of urls.filter((u) => !pages.includes(u))) {
      const { pathname } = new URL(url);
      const file = path.join(DIST, decodeURIComponent(pathname.slice("/addin/".length)));
      expect({ url, exists: fs.existsSync(file) }).toEqual({ url, exists: true });
    }
    // The support link: the function reference, which the service renders from docs/.
    expect(pages.map((u) => new URL(u).pathname)).toEqual(["/docs/functions"]);
    const { app } = await startService({ docsDir: path.join(ROOT, "docs"), email: null });
    try {
      for (const url of pages)
        expect({ url, status: (await app.inject({ method: "GET", url: new URL(url).pathname })).statusCode }).toEqual({ url, status: 200 });
    } finally {
      await app.close();
    }
  });

  test("taskpane.html loads the local office.js, then functions.js, then taskpane.js, and nothing remote", () => {
    const html = readDist("taskpane.html");
    const scripts = [...html.matchAll(/<script[^>]*\bsrc=["']?([^"'\s>]+)/g)].map((m) => m[1]);
    expect(scripts).toEqual(["office-js/office.js", "functions.js", "taskpane.js"]);
    for (const file of scripts) expect(fs.existsSync(path.join(DIST, file))).toBe(true);
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
  });

  test("office.js has the host scripts and strings it loads at run time beside it", () => {
    for (const file of [
      "excel-web-16.00.js",
      "excel-win32-16.01.js",
      "excel-mac-16.00.js",
      "en-us/office_strings.js",
      "telemetry/oteljs_agave.js",
    ]) {
      expect({ file, exists: fs.existsSync(path.join(DIST, "office-js", file)) }).toEqual({ file, exists: true });
    }
  });
});
