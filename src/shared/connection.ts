// Turns the saved settings into an API client. Both the functions and the pane start here, so
// "no key yet" is reported the same way everywhere, before any request is made.
import { createApiClient, type ApiClient } from "./api-client";
import { ApiError } from "./api-error";
import { loadSettings, type KeyValueStorage } from "./settings";

export async function openClient(storage?: KeyValueStorage): Promise<ApiClient> {
  const settings = await loadSettings(storage);
  if (!settings.apiKey) {
    throw new ApiError(0, "not_configured", "No API key yet: open the Property Intelligence pane (Home tab) and connect.");
  }
  return createApiClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
}
