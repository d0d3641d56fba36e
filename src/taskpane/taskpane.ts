// Entry of the task pane page, which is also the add-in's shared runtime: functions.js runs
// in this same page (see webpack.config.js). This is the only module that waits for
// Office.onReady and looks up DOM elements; behaviour lives in the modules it wires together.
import { defaultBaseUrl, loadSettings, saveSettings } from "../shared/settings";
import { checkConnection, describeConnectionError } from "./connection-status";
import { refreshWorkbook } from "./ribbon-commands";

Office.onReady(() => {
  // Office.actions only exists where ribbon commands do (not in a plain browser).
  Office.actions?.associate("refreshWorkbook", refreshWorkbook);

  const form = element<HTMLFormElement>("connection-form");
  const baseUrlInput = element<HTMLInputElement>("base-url");
  const apiKeyInput = element<HTMLInputElement>("api-key");
  const saveButton = element<HTMLButtonElement>("save");
  const status = element<HTMLElement>("status");

  async function showConnection(): Promise<void> {
    status.textContent = "Checking the connection…";
    try {
      status.textContent = await checkConnection();
    } catch (err) {
      status.textContent = describeConnectionError(err);
    }
  }

  async function fillForm(): Promise<void> {
    const settings = await loadSettings();
    baseUrlInput.placeholder = defaultBaseUrl();
    baseUrlInput.value = settings.baseUrlSaved ? settings.baseUrl : "";
    // A saved key is never shown again; the placeholder says one is there.
    apiKeyInput.value = "";
    apiKeyInput.placeholder = settings.apiKey ? "Saved (leave empty to keep it)" : "Paste your API key";
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    saveButton.disabled = true;
    void saveSettings({ baseUrl: baseUrlInput.value, apiKey: apiKeyInput.value })
      .then(fillForm)
      .then(showConnection)
      .catch((err: unknown) => {
        status.textContent = `Not saved: ${err instanceof Error ? err.message : String(err)}`;
      })
      .finally(() => {
        saveButton.disabled = false;
      });
  });

  void fillForm()
    .then(showConnection)
    .catch((err: unknown) => {
      status.textContent = describeConnectionError(err);
    });
});

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`taskpane.html has no element #${id}`);
  return found as T;
}
