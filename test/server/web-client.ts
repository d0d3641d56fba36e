// A browser stand-in for the web pages over app.inject: keeps cookies, reads the CSRF token
// out of each form, posts urlencoded forms.
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type ServiceOptions, startService } from "../helpers/service";

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    readonly ip = "127.0.0.1",
  ) {}

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {};
  }

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of ([] as string[]).concat((res.headers["set-cookie"] as string | string[] | undefined) ?? [])) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      if (/Max-Age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1));
    }
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({ method: "GET", url, remoteAddress: this.ip, headers: { ...this.cookieHeader(), ...headers } });
    return this.keep(res);
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: "POST",
      url,
      remoteAddress: this.ip,
      payload: new URLSearchParams(form).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", ...this.cookieHeader(), ...headers },
    });
    return this.keep(res);
  }

  /** Loads a page and posts its form with the page's CSRF token. */
  async submit(pageUrl: string, action: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    const page = await this.get(pageUrl);
    return this.post(action, { csrf: csrfOf(page.body), ...form }, headers);
  }

  signUp(email: string, password: string) {
    return this.submit("/account/signup", "/account/signup", { email, password });
  }

  logIn(email: string, password: string) {
    return this.submit("/account/login", "/account/login", { email, password });
  }

  /** Creates a key through the keys page and returns the raw key from its one display. */
  async createKey(name: string): Promise<string> {
    const res = await this.submit("/account", "/account/keys", { name });
    if (res.statusCode !== 303) throw new Error(`creating a key answered ${res.statusCode}`);
    return shownKey((await this.get("/account")).body)!;
  }
}

export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error("no CSRF token on the page");
  return m[1];
}

/** The raw key the keys page displays after creation, if any. */
export function shownKey(html: string): string | undefined {
  return /id="new-key-value"[^>]*value="([^"]+)"/.exec(html)?.[1];
}

export const PASSWORD = "correct horse battery staple";

/**
 * The service on the embedded SQLite store (the web tests read its database and call its
 * stores synchronously), with no account yet and a clock the test moves.
 */
export async function startWebService(start = new Date("2026-11-10T12:00:00Z"), options: ServiceOptions = {}) {
  let at = start.getTime();
  const now = () => new Date(at);
  const svc = await startService({ now, ...options, store: "sqlite", email: null });
  const sqlite = svc.sqlite!;
  return {
    app: svc.app,
    accountsDb: sqlite.db,
    accounts: sqlite.accounts,
    keys: sqlite.keys,
    advance(ms: number) {
      at += ms;
    },
    client: (ip?: string) => new WebClient(svc.app, ip),
    api: (key: string, url = "/v1/commercial/coverage") =>
      svc.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } }),
  };
}
