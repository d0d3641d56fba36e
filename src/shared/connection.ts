// Turns the saved settings into an API client. Both the functions and the pane start here, so
// "no key yet" is reported the same way everywhere, before any request is made. (A key that
// is there but mistyped is caught by the client, also before any request.)
import { createApiClient, type ApiClient, type ResponseInfo } from "./api-client";
import { ApiError } from "./api-error";
import { loadSettings, onSettingsChanged, type KeyValueStorage } from "./settings";

export interface ConnectOptions {
  onResponse?: (info: ResponseInfo) => void;
  fetch?: typeof fetch;
}

export async function openClient(storage?: KeyValueStorage, options: ConnectOptions = {}): Promise<ApiClient> {
  const settings = await loadSettings(storage);
  if (!settings.apiKey) {
    throw new ApiError(0, "not_configured", "No API key yet: open the Property Intelligence pane (Home tab) and connect.");
  }
  return createApiClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, onResponse: options.onResponse, fetch: options.fetch });
}

/**
 * A connect function that reads the settings once and reuses the client until the pane saves
 * new ones: a thousand cells should not read storage two thousand times.
 */
export function memoisedConnect(storage: () => KeyValueStorage | undefined, options: ConnectOptions = {}): () => Promise<ApiClient> {
  let client: Promise<ApiClient> | null = null;
  onSettingsChanged(() => {
    client = null;
  });
  return () => {
    if (!client) {
      const opening = openClient(storage(), options);
      client = opening;
      // A failure (no key yet) is not kept: the next call reads the settings again.
      opening.catch(() => {
        if (client === opening) client = null;
      });
    }
    return client;
  };
}
