// The task pane: connection and status at the top, then one tab per job (search, compare,
// refresh, freeze). Fluent UI v9, so it looks and behaves like the rest of Office, including
// keyboard focus and high-contrast themes.
import { FluentProvider, MessageBar, MessageBarBody, Tab, TabList, webLightTheme } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import type { Connection } from "../pane-connection";
import { CompareTab } from "./CompareTab";
import { ConnectCard } from "./ConnectCard";
import { FreezeTab } from "./FreezeTab";
import { RefreshTab } from "./RefreshTab";
import { SearchTab } from "./SearchTab";
import { StatusCard } from "./StatusCard";
import { PaneContext, type PaneServices, type PaneState } from "./pane-state";

const TABS = {
  search: { label: "Search", Body: SearchTab },
  compare: { label: "Compare", Body: CompareTab },
  refresh: { label: "Refresh", Body: RefreshTab },
  freeze: { label: "Freeze", Body: FreezeTab },
} as const;
type TabId = keyof typeof TABS;

export function App({ services, hostWarning }: { services: PaneServices; hostWarning?: string }) {
  const [connection, setConnection] = useState<Connection | null>(null);
  const [lastRefresh, setLastRefresh] = useState<string | null>(null);
  const [tab, setTab] = useState<TabId>("search");
  const pane: PaneState = useMemo(
    () => ({ ...services, connection, setConnection, lastRefresh, setLastRefresh }),
    [services, connection, lastRefresh],
  );
  const { Body } = TABS[tab];
  return (
    <FluentProvider theme={webLightTheme} className="pane">
      <PaneContext.Provider value={pane}>
        <header>
          <h1>Property Intelligence</h1>
        </header>
        {hostWarning && (
          <MessageBar intent="warning" layout="multiline" className="host-warning">
            <MessageBarBody>{hostWarning}</MessageBarBody>
          </MessageBar>
        )}
        <ConnectCard />
        <StatusCard />
        <nav>
          <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabId)} size="small" aria-label="Tasks">
            {(Object.keys(TABS) as TabId[]).map((id) => (
              <Tab key={id} value={id} id={`tab-${id}`} aria-controls="tab-panel">
                {TABS[id].label}
              </Tab>
            ))}
          </TabList>
        </nav>
        <section id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
          <Body />
        </section>
      </PaneContext.Provider>
    </FluentProvider>
  );
}
