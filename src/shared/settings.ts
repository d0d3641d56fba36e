// The connection settings (service base URL and API key). They live in OfficeRuntime.storage,
// which belongs to this add-in on this machine, and never in the workbook: workbook settings
// travel with the file, and a key must not.
import { SETTING_KEYS } from "./setting-keys";

/** The subset of OfficeRuntime.storage this module uses; tests pass an in-memory stand-in. */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export { SETTING_KEYS };

export interface Settings {
  /** Where the v1 service is; defaults to the origin the add-in was served from. */
  baseUrl: string;
  /** True when baseUrl was saved by the user rather than defaulted. */
  baseUrlSaved: boolean;
  apiKey: string | null;
}

/** Used only outside a browser page (e.g. tests); inside Office the page always has an origin. */
const FALLBACK_BASE_URL = "http://localhost:3000";

/** The origin the add-in's page was loaded from: the service that served it is the default. */
export function defaultBaseUrl(): string {
  const origin = globalThis.location?.origin;
  return origin && /^https?:\/\//.test(origin) ? origin : FALLBACK_BASE_URL;
}

/** Checks and tidies a base URL typed by a user; throws with a readable message when it is unusable. */
export function normaliseBaseUrl(input: string): string {
  const trimmed = input.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`"${trimmed}" is not a URL; expected something like https://prop.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`The base URL must start with http:// or https://, not ${url.protocol}//`);
  }
  if (url.search || url.hash) throw new Error("The base URL must not have a query (?...) or fragment (#...).");
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

// Listeners told when the pane saves new settings, so a client built from the old ones is
// dropped (the functions and the pane share one runtime, so one module instance).
const changeListeners = new Set<() => void>();

/** Calls `listener` after every save or forget; returns the function that stops it. */
export function onSettingsChanged(listener: () => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

function settingsChanged(): void {
  for (const listener of changeListeners) listener();
}

export async function loadSettings(storage: KeyValueStorage = officeStorage()): Promise<Settings> {
  const [baseUrl, apiKey] = await Promise.all([storage.getItem(SETTING_KEYS.baseUrl), storage.getItem(SETTING_KEYS.apiKey)]);
  return {
    baseUrl: baseUrl || defaultBaseUrl(),
    baseUrlSaved: Boolean(baseUrl),
    apiKey: apiKey || null,
  };
}

/**
 * Saves what the user entered. An empty base URL goes back to the default; an empty key keeps
 * the stored one (the pane never shows a saved key, so an empty box means "unchanged").
 */
export async function saveSettings(input: { baseUrl: string; apiKey: string }, storage: KeyValueStorage = officeStorage()): Promise<void> {
  const baseUrl = input.baseUrl.trim();
  if (baseUrl) await storage.setItem(SETTING_KEYS.baseUrl, normaliseBaseUrl(baseUrl));
  else await storage.removeItem(SETTING_KEYS.baseUrl);
  const apiKey = input.apiKey.trim();
  if (apiKey) await storage.setItem(SETTING_KEYS.apiKey, apiKey);
  settingsChanged();
}

export async function forgetApiKey(storage: KeyValueStorage = officeStorage()): Promise<void> {
  await storage.removeItem(SETTING_KEYS.apiKey);
  settingsChanged();
}

/** OfficeRuntime.storage when the page runs inside Office; null in a plain browser or in tests. */
export function officeStorageIfAvailable(): KeyValueStorage | null {
  return typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage ? OfficeRuntime.storage : null;
}

// Looked up at call time, not import time, so importing this module has no side effects.
function officeStorage(): KeyValueStorage {
  // Office provides it in the add-in's runtime; a page opened in a plain browser has none.
  if (typeof OfficeRuntime === "undefined" || !OfficeRuntime.storage) {
    throw new Error("settings storage is unavailable: open this page from Excel, not in a browser.");
  }
  return OfficeRuntime.storage;
}
