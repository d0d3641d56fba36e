// The one place where a failure becomes what the pane shows: a title and a sentence the user
// can act on. 4xx messages are the service's own words; 5xx details stay in the console.
import { ApiError } from "../shared/api-error";
import { formatDay } from "./status-text";

export type Intent = "success" | "info" | "warning" | "error";

export interface PaneMessage {
  intent: Intent;
  title: string;
  text: string;
}

export function failureMessage(err: unknown): PaneMessage {
  if (err instanceof ApiError) return apiFailure(err);
  // The pane's own checks (SelectionError, TargetNotEmptyError, ConnectError, form errors)
  // carry sentences written for the user.
  if (err instanceof Error && err.name !== "Error" && err.name !== "TypeError") {
    return { intent: "warning", title: "Nothing was changed", text: err.message };
  }
  console.error("Property Intelligence pane:", err);
  return { intent: "error", title: "Something went wrong", text: `${err instanceof Error ? err.message : String(err)} (details in the browser console)` };
}

function apiFailure(err: ApiError): PaneMessage {
  switch (err.status) {
    case 401:
      return { intent: "error", title: "Key not accepted", text: `${err.message} Connect again with a current key.` };
    case 402:
      return {
        intent: "warning",
        title: "Out of credits",
        text: err.resetAt ? `${err.message.replace(/ Credits reset at \S+\.?$/, "")} Credits come back on ${formatDay(err.resetAt)}.` : err.message,
      };
    case 404:
      return { intent: "warning", title: "Not found", text: err.message };
    case 429:
      return { intent: "warning", title: "Too many requests", text: err.message };
  }
  if (err.code === "not_configured") return { intent: "info", title: "Not connected", text: "Connect with your API key first (above)." };
  if (err.status >= 500) {
    console.error("Property Intelligence service error", err.status, err.code, err.message, err.requestId);
    return { intent: "error", title: "The service had a problem", text: `Try again shortly${err.requestId ? ` (request ${err.requestId})` : ""}.` };
  }
  const field = err.errors[0];
  return { intent: "warning", title: "Not accepted", text: field ? `${err.message} (${field.pointer}: ${field.detail})` : err.message };
}
