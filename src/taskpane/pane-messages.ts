// The one place where a failure becomes what the pane shows: a title and a sentence the user
// can act on. 4xx messages are the service's own words; 5xx details stay in the console. A
// service that cannot be reached is said so, with its URL and what to check, never as a
// refusal; a place the snapshot does not hold comes with the places it suggests instead.
import { ApiError, describeShortfall } from "../shared/api-error";
import { ConnectError } from "./connect-error";
import { formatDay } from "./status-text";
import { PLACE_KINDS, describeKinds, parsePlace, type Place, type PlaceKind } from "../contract/places";

export type Intent = "success" | "info" | "warning" | "error";

export interface PaneMessage {
  intent: Intent;
  title: string;
  text: string;
  /**
   * Places the service suggests instead of the one given (an unknown, ambiguous or unsupported
   * place), each usable as written: the search form offers them as buttons for its place field.
   */
  suggestions?: string[];
}

/** Client codes for "no answer came back": no service at the URL, a network failure, a timeout. */
const UNREACHABLE_CODES = new Set(["network_error", "timeout"]);

/** True when the request got no answer at all (status 0), as opposed to a refusal. */
export function isUnreachable(err: ApiError): boolean {
  return err.status === 0 && UNREACHABLE_CODES.has(err.code);
}

const WHAT_TO_CHECK =
  "Check that the service is running and that the Service URL under Connection is right; a proxy or firewall may also be in the way.";

/** Text ending as a sentence does ("…: Failed to fetch" gets its full stop). */
function sentence(text: string): string {
  return /[.!?)]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** Titles of the service's refusals of a place (free 400s that carry `suggestions`). */
const PLACE_TITLES: Record<string, string> = {
  unknown_place: "Place not found",
  ambiguous_place: "Which place?",
  unsupported_place: "Not a place this search takes",
};

export function failureMessage(err: unknown): PaneMessage {
  if (err instanceof ApiError) return apiFailure(err);
  if (err instanceof ConnectError && err.unreachable) {
    return { intent: "error", title: "Service unreachable", text: `${sentence(err.message)} ${WHAT_TO_CHECK}` };
  }
  // The pane's own checks (SelectionError, TargetNotEmptyError, ConnectError, form errors)
  // carry sentences written for the user.
  if (err instanceof Error && err.name !== "Error" && err.name !== "TypeError") {
    return { intent: "warning", title: "Nothing was changed", text: err.message };
  }
  console.error("Property Intelligence pane:", err);
  return {
    intent: "error",
    title: "Something went wrong",
    text: `${err instanceof Error ? err.message : String(err)} (details in the browser console)`,
  };
}

function apiFailure(err: ApiError): PaneMessage {
  if (isUnreachable(err)) return { intent: "error", title: "Service unreachable", text: `${sentence(err.message)} ${WHAT_TO_CHECK}` };
  // By code first: a refusal remembered in the result cache comes back with another status.
  if (err.code in PLACE_TITLES) return placeFailure(err);
  switch (err.status) {
    case 401:
      return { intent: "error", title: "Key not accepted", text: `${err.message} Connect again with a current key.` };
    case 402:
      return { intent: "warning", title: "Out of credits", text: outOfCredits(err) };
    case 404:
      return { intent: "warning", title: "Not found", text: err.message };
    case 429:
      return { intent: "warning", title: "Too many requests", text: err.message };
  }
  if (err.code === "not_configured") return { intent: "info", title: "Not connected", text: "Connect with your API key first (above)." };
  if (err.status >= 500) {
    console.error("Property Intelligence service error", err.status, err.code, err.message, err.requestId);
    return {
      intent: "error",
      title: "The service had a problem",
      text: `Try again shortly${err.requestId ? ` (request ${err.requestId})` : ""}.`,
    };
  }
  const field = err.errors[0];
  return { intent: "warning", title: "Not accepted", text: field ? `${err.message} (${field.pointer}: ${field.detail})` : err.message };
}

/**
 * What the call needed and when credits come back, from the 402's fields. An answer without
 * them (not the service's own) is shown as the client worded it.
 */
function outOfCredits(err: ApiError): string {
  const shortfall = err.shortfall;
  if (!shortfall) return err.message;
  const what = describeShortfall(shortfall);
  return err.resetsAt ? `${what} Credits come back on ${formatDay(err.resetsAt)}.` : what;
}

/**
 * A refused place, said from the problem's fields: the place as given (`place`), the kinds of
 * place the search takes (`accepted_kinds`), how many places a name matched (`match_count`), and
 * up to three `suggestions` the form offers as buttons. The service's sentence is shown only
 * when the problem carries no `place` (an answer not from this service). It cost nothing: the
 * service charges no refusal.
 */
function placeFailure(err: ApiError): PaneMessage {
  const { place, suggestions, accepted_kinds, match_count } = err.extensions;
  const offered = Array.isArray(suggestions)
    ? suggestions.filter((s): s is string => typeof s === "string" && s.trim() !== "").slice(0, 3)
    : [];
  const text = typeof place === "string" ? placeSentence(err.code, place, accepted_kinds, match_count, offered) : sentence(err.message);
  const message: PaneMessage = { intent: "warning", title: PLACE_TITLES[err.code], text: `${text} (No credits were used.)` };
  if (offered.length > 0) message.suggestions = offered;
  return message;
}

const KIND_WORDS: Record<PlaceKind, string> = { state: "state", county: "county", city: "city", zip: "ZIP code", metro: "metro" };

/** The place the text names, read as the functions read a place; undefined when it reads as none. */
function parsedPlace(place: string): Place | undefined {
  try {
    return parsePlace(place);
  } catch {
    return undefined;
  }
}

/** What kind of place the text names ("place" when it reads as none). */
function kindWord(place: string): string {
  const parsed = parsedPlace(place);
  return parsed ? KIND_WORDS[parsed.kind] : "place";
}

/** Whether the text names a place with its state. */
function hasState(place: string): boolean {
  const parsed = parsedPlace(place);
  return parsed !== undefined && "state" in parsed && parsed.state !== null;
}

function placeSentence(code: string, place: string, accepted: unknown, matches: unknown, offered: string[]): string {
  switch (code) {
    case "ambiguous_place": {
      const count = typeof matches === "number" ? `${matches} places` : "more than one place";
      // With its state given, the places left share their name and state: only a county or ZIP code tells them apart.
      if (hasState(place)) return `"${place}" names ${count} of one name in one state; ask for the county or a ZIP code instead.`;
      return `"${place}" names ${count}; add the state${offered.length > 0 ? `, such as "${offered[0]}"` : ""}.`;
    }
    case "unsupported_place": {
      const kinds = Array.isArray(accepted) ? accepted.filter((k): k is PlaceKind => (PLACE_KINDS as readonly unknown[]).includes(k)) : [];
      return kinds.length > 0
        ? `"${place}" is not a place this search takes; it takes ${describeKinds(kinds)}.`
        : `"${place}" is not a place this search takes.`;
    }
    default:
      return `This snapshot holds no ${kindWord(place)} "${place}".`;
  }
}
