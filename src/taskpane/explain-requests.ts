// The ribbon's "Explain cell" asks the pane to explain the selected cell. The button's handler
// and the pane run in the add-in's one shared runtime, so the request is a flag and an event
// here: the pane switches to its Explain tab and reads the selection, whether it was open
// already or is opened by the handler (then it finds the flag set when it starts).
export type ExplainListener = () => void;

export class ExplainRequests {
  private waiting = false;
  private readonly listeners = new Set<ExplainListener>();

  /** Asks for an explanation of the selected cell now. */
  request(): void {
    this.waiting = true;
    for (const listener of this.listeners) listener();
  }

  /** Whether a request is waiting. */
  get pending(): boolean {
    return this.waiting;
  }

  /** Whether a request is waiting; taking it clears it. */
  take(): boolean {
    const was = this.waiting;
    this.waiting = false;
    return was;
  }

  /** Calls `listener` on every request from now on; returns the function that stops it. */
  subscribe(listener: ExplainListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

let current: ExplainRequests | null = null;

/** The runtime's requests (the ribbon and the pane share them). */
export function explainRequests(): ExplainRequests {
  current ??= new ExplainRequests();
  return current;
}
