// What every panel of the pane shares: the services it works with (the add-in session, the
// workbook, the settings storage) and the connection state. Provided once by App.
import { createContext, useContext } from "react";
import type { AddinSession } from "../../shared/addin-session";
import type { KeyValueStorage } from "../../shared/settings";
import type { Connection } from "../pane-connection";
import type { WorkbookPort } from "../workbook-types";

export interface PaneServices {
  session: AddinSession;
  workbook: WorkbookPort;
  storage: KeyValueStorage;
  /** Where the account pages are, for "Create a key". */
  accountUrl: (baseUrl: string) => string;
}

export interface PaneState extends PaneServices {
  connection: Connection | null;
  setConnection: (connection: Connection | null) => void;
  /** ISO time of the last refresh this session, shown in the status card. */
  lastRefresh: string | null;
  setLastRefresh: (at: string) => void;
}

export const PaneContext = createContext<PaneState | null>(null);

export function usePane(): PaneState {
  const pane = useContext(PaneContext);
  if (!pane) throw new Error("usePane() outside <App>");
  return pane;
}
