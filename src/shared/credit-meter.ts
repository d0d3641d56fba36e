// What the add-in knows about the account's credits, from the headers of the latest response.
// PROP.CREDITS and the pane's meter read it; nothing here makes a request.
import type { CreditHeaders } from "./credit-headers";

export interface CreditState {
  plan: string | null;
  limit: number | null;
  remaining: number | null;
  resetsAt: string | null;
  /** Credits charged by responses seen since the add-in started (this runtime only). */
  chargedThisSession: number;
  /** When the figures were last updated, as an ISO timestamp. */
  observedAt: string;
}

export type CreditListener = (state: CreditState | null) => void;

export class CreditMeter {
  private state: CreditState | null = null;
  private readonly listeners = new Set<CreditListener>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The latest figures, or null before any response carried credit headers. */
  current(): CreditState | null {
    return this.state;
  }

  observe(headers: CreditHeaders): void {
    const previous = this.state;
    this.state = {
      // A header missing from one response keeps the value the last one gave.
      plan: headers.plan ?? previous?.plan ?? null,
      limit: headers.limit ?? previous?.limit ?? null,
      remaining: headers.remaining ?? previous?.remaining ?? null,
      resetsAt: headers.resetsAt ?? previous?.resetsAt ?? null,
      chargedThisSession: (previous?.chargedThisSession ?? 0) + (headers.charged ?? 0),
      observedAt: new Date(this.now()).toISOString(),
    };
    for (const listener of this.listeners) listener(this.state);
  }

  /** Forgets the figures (the pane's "Sign out": they belonged to the key just removed). */
  reset(): void {
    this.state = null;
    for (const listener of this.listeners) listener(null);
  }

  /** Calls `listener` on every update; returns the function that stops it. */
  subscribe(listener: CreditListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
