// Counting attempts per key (an IP address, an email) in fixed windows, in memory. Enough for
// one process; several processes share PostgreSQL's counts instead (src/server/postgres/).
import type { AttemptCounter } from "./stores";

interface Window {
  count: number;
  resetAt: number;
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
    return w && w.count >= this.limit ? Math.max(1, Math.ceil((w.resetAt - this.nowMs()) / 1000)) : 0;
  }

  record(key: string): void {
    let w = this.live(key);
    if (!w) {
      if (this.windows.size >= this.maxKeys) this.evict();
      w = { count: 0, resetAt: this.nowMs() + this.windowMs };
      this.windows.set(key, w);
    }
    w.count++;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private live(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.resetAt <= this.nowMs()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private evict(): void {
    const now = this.nowMs();
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    // Still full: drop the oldest window (Maps iterate in insertion order).
    if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
  }
}

const minutes = (m: number) => m * 60_000;

/** The limits of the sign-up and log-in forms: attempts per window. */
export const AUTH_LIMITS = {
  /** Sign-ups from one IP address: 10 an hour. */
  signUpPerIp: { limit: 10, windowMs: minutes(60) },
  /** Sign-up attempts for one email: 5 an hour. */
  signUpPerEmail: { limit: 5, windowMs: minutes(60) },
  /** Log-in attempts from one IP address: 30 in 15 minutes. */
  logInPerIp: { limit: 30, windowMs: minutes(15) },
  /** Failed log-ins for one email: 10 in 15 minutes (a success clears them). */
  logInFailuresPerEmail: { limit: 10, windowMs: minutes(15) },
} as const;

/** The limits of the sign-up and log-in forms, counted in this process's memory. */
export function authLimiters(nowMs: () => number = Date.now) {
  const counter = (name: keyof typeof AUTH_LIMITS) => new AttemptLimiter(AUTH_LIMITS[name].limit, AUTH_LIMITS[name].windowMs, nowMs);
  return {
    signUpPerIp: counter("signUpPerIp"),
    signUpPerEmail: counter("signUpPerEmail"),
    logInPerIp: counter("logInPerIp"),
    logInFailuresPerEmail: counter("logInFailuresPerEmail"),
  };
}
export type AuthLimiters = ReturnType<typeof authLimiters>;
