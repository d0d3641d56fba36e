// The task pane: connection and status at the top, then one tab per job (search, match,
// compare, refresh, freeze, explain, model). Fluent UI v9, so it looks and behaves like the rest of Office, including
// keyboard focus and high-contrast themes.
//
// Connection and Status are folding cards. Until the pane is connected the Connection card is
// open (its form is the first thing to do); once connected both fold to their headers, which
// still say what matters (connected, the plan, the credits left), so at the narrowest pane the
// search form is in view without scrolling past them. Status opens by itself when the credits
// run out. A card the user opens or closes stays so until the connection changes.
import { Accordion, FluentProvider, MessageBar, MessageBarBody, Tab, TabList, webLightTheme } from "@fluentui/react-components";
import { useEffect, useMemo, useState } from "react";
import type { Connection } from "../pane-connection";
import { creditSummary } from "../status-text";
import { CompareTab } from "./CompareTab";
import { ConnectCard } from "./ConnectCard";
import { ExplainTab } from "./ExplainTab";
import { explainRequests } from "../explain-requests";
import { FreezeTab } from "./FreezeTab";
import { MatchTab } from "./MatchTab";
import { ModelTab } from "./ModelTab";
import { RefreshTab } from "./RefreshTab";
import { SearchTab } from "./SearchTab";
import { StatusCard } from "./StatusCard";
import { PaneContext, type PaneServices, type PaneState } from "./pane-state";
import { useCredits } from "./use-live-state";

const TABS = {
  search: { label: "Search", Body: SearchTab },
  match: { label: "Match", Body: MatchTab },
  compare: { label: "Compare", Body: CompareTab },
  refresh: { label: "Refresh", Body: RefreshTab },
  freeze: { label: "Freeze", Body: FreezeTab },
  explain: { label: "Explain", Body: ExplainTab },
  model: { label: "Model", Body: ModelTab },
} as const;
type TabId = keyof typeof TABS;

type CardId = "connection" | "status";

export function App({ services, hostWarning }: { services: PaneServices; hostWarning?: string }) {
  const [connection, setConnection] = useState<Connection | null>(null);
  const [lastRefresh, setLastRefresh] = useState<string | null>(null);
  // Opened by the ribbon's "Explain cell": start on the Explain tab (which takes the request).
  const [tab, setTab] = useState<TabId>(() => (explainRequests().pending ? "explain" : "search"));
  useEffect(() => explainRequests().subscribe(() => setTab("explain")), []);
  const [openCards, setOpenCards] = useState<CardId[]>(["connection"]);
  const exhausted = creditSummary(useCredits(services.session))?.exhausted ?? false;
  const connected = connection !== null;
  const pane: PaneState = useMemo(
    () => ({ ...services, connection, setConnection, lastRefresh, setLastRefresh }),
    [services, connection, lastRefresh],
  );

  // The cards follow the connection and the credits as they change (set while rendering, as
  // React advises for state that follows other state): a new connection folds both cards, or
  // leaves Status open if the credits are already gone; credits running out open Status.
  const [seen, setSeen] = useState({ connected, exhausted });
  if (seen.connected !== connected || seen.exhausted !== exhausted) {
    setSeen({ connected, exhausted });
    if (seen.connected !== connected) setOpenCards(connected ? (exhausted ? ["status"] : []) : ["connection"]);
    else if (exhausted) setOpenCards((open) => (open.includes("status") ? open : [...open, "status"]));
  }

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
        <Accordion multiple collapsible openItems={openCards} onToggle={(_, d) => setOpenCards(d.openItems as CardId[])} className="cards">
          <ConnectCard />
          <StatusCard />
        </Accordion>
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
