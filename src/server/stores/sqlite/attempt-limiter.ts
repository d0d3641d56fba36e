// Counting attempts per key (an IP address, an email) in fixed windows, in this process's
// memory: the embedded store's sign-up and log-in limits. Enough for one process; several
// processes share PostgreSQL's counts instead (stores/postgres/limits.ts).
import { AUTH_LIMITS, type AttemptCounter, type AuthLimits } from "../../auth/ports";

interface Window {
  count: number;
  endsAt: number;
}

export class AttemptLimiter implements AttemptCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly nowMs: () => number = Date.now,
    /** Bounded, so a flood of distinct keys cannot grow memory without end. */
    private readonly maxKeys = 100_000,
  ) {}

  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfter(key: string): number {
    const w = this.live(key);
    return w && w.count >= this.limit ? Math.max(1, Math.ceil((w.endsAt - this.nowMs()) / 1000)) : 0;
  }

  record(key: string): void {
    let w = this.live(key);
    if (!w) {
      if (this.windows.size >= this.maxKeys) this.evict();
      w = { count: 0, endsAt: this.nowMs() + this.windowMs };
      this.windows.set(key, w);
    }
    w.count++;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private live(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.endsAt <= this.nowMs()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private evict(): void {
    const now = this.nowMs();
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    // Still full: drop the oldest window (Maps iterate in insertion order).
    if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
  }
}

/** The limits of the sign-up and log-in forms (AUTH_LIMITS), counted in this process's memory. */
export function authLimiters(nowMs: () => number = Date.now): AuthLimits {
  const counter = (name: keyof typeof AUTH_LIMITS) => new AttemptLimiter(AUTH_LIMITS[name].limit, AUTH_LIMITS[name].windowMs, nowMs);
  return {
    signUpPerIp: counter("signUpPerIp"),
    signUpPerEmail: counter("signUpPerEmail"),
    logInPerIp: counter("logInPerIp"),
    logInFailuresPerEmail: counter("logInFailuresPerEmail"),
  };
}
