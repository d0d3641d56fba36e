// Connect: base URL and API key, checked (shape and checksum here, then one free call) before
// anything is saved. Once connected the form gives way to one line with "Change key" and
// "Sign out", and the card folds to its header (App.tsx), which says connected and the plan.
// The key is saved in OfficeRuntime.storage only, never in the workbook.
import { AccordionHeader, AccordionItem, AccordionPanel, Button, Field, Input, Link, Text } from "@fluentui/react-components";
import { useEffect, useState, type FormEvent } from "react";
import { defaultBaseUrl } from "../../shared/settings";
import { ConnectError } from "../connect-error";
import { connect, resume, signOut } from "../pane-connection";
import { connectionSummary } from "../status-text";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useCredits } from "./use-live-state";
import { useTask } from "./use-task";

export function ConnectCard() {
  const pane = usePane();
  const task = useTask();
  const credits = useCredits(pane.session);
  const [baseUrl, setBaseUrl] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [editing, setEditing] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: "baseUrl" | "apiKey"; text: string } | null>(null);

  // On opening: a saved key is checked with the same free call, so the status is current.
  useEffect(() => {
    void task.run("Checking the saved connection…", async () => {
      try {
        const resumed = await resume(pane);
        pane.setConnection(resumed);
        if (!resumed) setEditing(true);
        return null;
      } catch (err) {
        setEditing(true);
        throw err;
      }
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    setFieldError(null);
    void task.run("Checking the key with a free call…", async () => {
      try {
        const connection = await connect({ baseUrl, apiKey }, pane);
        pane.setConnection(connection);
        setApiKey("");
        setEditing(false);
        // "Connected to …" replaces the form; no message needed.
        return null;
      } catch (err) {
        if (err instanceof ConnectError && err.field) setFieldError({ field: err.field, text: err.message });
        throw err;
      }
    });
  }

  function disconnect() {
    void task.run("Signing out…", async () => {
      await signOut(pane);
      pane.setConnection(null);
      setEditing(true);
      return { intent: "info", title: "Signed out", text: "The key and the results fetched with it were removed from this computer." };
    });
  }

  const target = baseUrl.trim() || pane.connection?.baseUrl || defaultBaseUrl();
  const connected = pane.connection !== null;
  return (
    <AccordionItem value="connection" className="card">
      <AccordionHeader as="h2" size="small" expandIconPosition="end" className="card-header">
        <span className="card-title">Connection</span> <span className="card-summary">{connectionSummary(connected, credits)}</span>
      </AccordionHeader>
      <AccordionPanel className="card-body">
        {connected && !editing ? (
          <div className="connected">
            <Text>
              Connected to <strong>{pane.connection!.baseUrl}</strong>
            </Text>
            <div className="actions">
              <Button onClick={() => setEditing(true)}>Change key</Button>
              <Button onClick={disconnect} disabled={task.busy}>
                Sign out
              </Button>
            </div>
          </div>
        ) : (
          <form onSubmit={submit} noValidate aria-label="Connect">
            <Field
              label="Service URL"
              hint="Leave empty for the service this add-in came from."
              validationMessage={fieldError?.field === "baseUrl" ? fieldError.text : undefined}
            >
              <Input
                value={baseUrl}
                onChange={(_, d) => setBaseUrl(d.value)}
                placeholder={pane.connection?.baseUrl ?? defaultBaseUrl()}
                type="url"
                spellCheck={false}
              />
            </Field>
            <Field
              label="API key"
              hint={
                pane.connection ? "Leave empty to keep the saved key." : "Kept on this computer for this add-in, never in the workbook."
              }
              validationMessage={fieldError?.field === "apiKey" ? fieldError.text : undefined}
            >
              <Input
                value={apiKey}
                onChange={(_, d) => setApiKey(d.value)}
                type="password"
                autoComplete="off"
                spellCheck={false}
                placeholder="propi_live_…"
              />
            </Field>
            <div className="actions">
              <Button appearance="primary" type="submit" disabled={task.busy}>
                Connect
              </Button>
              {connected && <Button onClick={() => setEditing(false)}>Cancel</Button>}
            </div>
            <Text size={200}>
              No key yet?{" "}
              <Link href={pane.accountUrl(target)} target="_blank" rel="noopener noreferrer">
                Create one in your account
              </Link>{" "}
              (the Explorer plan is free: 1,000 credits a month).
            </Text>
          </form>
        )}
        <TaskFeedback task={task} />
      </AccordionPanel>
    </AccordionItem>
  );
}
