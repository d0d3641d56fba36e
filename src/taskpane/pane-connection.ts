// Connect and sign out, as the pane does them. A key is checked in three steps, cheapest
// first: its shape and checksum here (no request), then one free call (coverage) with the
// candidate key, and only then is it saved, so a typo never replaces a working key.
import { createApiClient } from "../shared/api-client";
import type { AddinSession } from "../shared/addin-session";
import { ApiError } from "../shared/api-error";
import { getCoverage } from "../shared/commercial-api";
import type { CoverageReport } from "../contract/coverage";
import { ConnectError } from "./connect-error";
import { isUnreachable } from "./pane-messages";
import { describeKeyProblem } from "../contract/api-key-format";
import { defaultBaseUrl, forgetApiKey, loadSettings, normaliseBaseUrl, saveSettings, type KeyValueStorage } from "../shared/settings";

export interface PaneDeps {
  session: AddinSession;
  storage: KeyValueStorage;
  fetch?: typeof fetch;
}

export interface Connection {
  baseUrl: string;
  coverage: CoverageReport;
}

/**
 * Checks and saves what the connect form holds. An empty key box means "keep the saved key"
 * (the pane never shows a saved key); an empty base URL means the service the add-in came from.
 */
export async function connect(input: { baseUrl: string; apiKey: string }, deps: PaneDeps): Promise<Connection> {
  const saved = await loadSettings(deps.storage);
  const apiKey = input.apiKey.trim() || saved.apiKey || "";
  const keyProblem = describeKeyProblem(apiKey);
  if (keyProblem) throw new ConnectError(keyProblem, "apiKey");
  let baseUrl: string;
  try {
    baseUrl = input.baseUrl.trim() ? normaliseBaseUrl(input.baseUrl) : defaultBaseUrl();
  } catch (err) {
    throw new ConnectError((err as Error).message, "baseUrl");
  }
  const client = createApiClient({
    baseUrl,
    apiKey,
    fetch: deps.fetch,
    // One attempt: a person is waiting, and a wrong URL should say so at once.
    maxRetries: 0,
    timeoutMs: 10_000,
    onResponse: (info) => info.credits && deps.session.meter.observe(info.credits),
  });
  let coverage: CoverageReport;
  try {
    coverage = await getCoverage(client);
  } catch (err) {
    throw connectFailure(err, baseUrl);
  }
  await saveSettings({ baseUrl: input.baseUrl, apiKey }, deps.storage);
  return { baseUrl, coverage };
}

/** The connection the saved settings give, checked with the same free call; null when no key is saved. */
export async function resume(deps: PaneDeps): Promise<Connection | null> {
  const saved = await loadSettings(deps.storage);
  if (!saved.apiKey) return null;
  return connect({ baseUrl: saved.baseUrlSaved ? saved.baseUrl : "", apiKey: "" }, deps);
}

/** "Sign out": the key leaves this computer, and so do results fetched with it. */
export async function signOut(deps: PaneDeps): Promise<void> {
  await forgetApiKey(deps.storage);
  deps.session.cache.clear();
  await deps.session.persistence.clear();
  deps.session.meter.reset();
}

function connectFailure(err: unknown, baseUrl: string): ConnectError {
  if (!(err instanceof ApiError)) return new ConnectError(`Could not reach ${baseUrl}: ${String(err)}`, "baseUrl", true);
  if (err.status === 401) {
    return new ConnectError(`The service did not accept this key (it may have been revoked). ${err.message}`, "apiKey");
  }
  if (err.status === 0) {
    // Network failure or timeout: the URL is the likely culprit (or the service is down).
    // The client's message already names the URL ("Could not reach …", "No answer from …").
    return new ConnectError(err.message, "baseUrl", isUnreachable(err));
  }
  if (err.status >= 500) {
    return new ConnectError(`The service had a problem${err.requestId ? ` (request ${err.requestId})` : ""}; try again shortly.`, null);
  }
  return new ConnectError(err.message, null);
}
