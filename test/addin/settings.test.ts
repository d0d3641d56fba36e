// Connection settings: stored in OfficeRuntime.storage (a stand-in here), defaulting the base
// URL to the page's origin, and never storing a key that was not typed.
import { SETTING_KEYS, loadSettings, normaliseBaseUrl, saveSettings } from "../../src/shared/settings";
import { openClient } from "../../src/shared/connection";
import { memoryStorage } from "./office-stand-ins";

test("defaults to the origin the add-in was served from", async () => {
  const g = globalThis as { location?: unknown };
  try {
    g.location = { origin: "https://prop.example.com" };
    expect(await loadSettings(memoryStorage())).toEqual({ baseUrl: "https://prop.example.com", baseUrlSaved: false, apiKey: null });
  } finally {
    delete g.location;
  }
  // Outside a page (no origin, as here in Node) the local service.
  const settings = await loadSettings(memoryStorage());
  expect(settings).toEqual({ baseUrl: "http://localhost:3000", baseUrlSaved: false, apiKey: null });
});

test("saves a tidied base URL and the key; an empty key box keeps the saved key", async () => {
  const storage = memoryStorage();
  await saveSettings({ baseUrl: " https://prop.example.com/ ", apiKey: " prop_live_k1_abc " }, storage);
  expect(storage.items.get(SETTING_KEYS.baseUrl)).toBe("https://prop.example.com");
  expect(storage.items.get(SETTING_KEYS.apiKey)).toBe("prop_live_k1_abc");
  await saveSettings({ baseUrl: "", apiKey: "" }, storage);
  expect(storage.items.has(SETTING_KEYS.baseUrl)).toBe(false);
  expect(storage.items.get(SETTING_KEYS.apiKey)).toBe("prop_live_k1_abc");
});

test("rejects base URLs the client could not use", () => {
  expect(() => normaliseBaseUrl("prop.example.com")).toThrow(/not a URL/);
  expect(() => normaliseBaseUrl("ftp://prop.example.com")).toThrow(/http/);
  expect(() => normaliseBaseUrl("https://prop.example.com/?key=abc")).toThrow(/query/);
  expect(normaliseBaseUrl("https://prop.example.com/api/")).toBe("https://prop.example.com/api");
});

test("without a key, opening a client fails with not_configured before any request", async () => {
  const fetch = jest.fn();
  const globalFetch = jest.spyOn(globalThis, "fetch");
  try {
    await expect(openClient(memoryStorage(), { fetch: fetch as unknown as typeof globalThis.fetch })).rejects.toMatchObject({
      status: 0,
      code: "not_configured",
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(globalFetch).not.toHaveBeenCalled();
  } finally {
    globalFetch.mockRestore();
  }
});
