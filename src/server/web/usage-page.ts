// The usage page: the plan, this period's credits, the reset date and the recent metered calls.
import type { KeySummary } from "../auth/ports";
import type { UsageReport } from "../credits/ports";
import { formatDay, formatUtc, html } from "./html";
import { page, type SignedIn } from "./layout";

export function usagePage(signedIn: SignedIn, usage: UsageReport, keys: KeySummary[]): string {
  const names = new Map(keys.map((k) => [k.key_id, k.name]));
  const limit = usage.plan.monthly_credits;
  const n = (v: number) => v.toLocaleString("en-US");
  return page({
    title: "Usage",
    current: "usage",
    signedIn,
    main: html`<h1>Usage</h1>
<p class="lead">${usage.plan.name} plan: ${n(limit)} credits a month. Credits reset at 00:00 UTC on the 1st; this period is ${usage.period}.</p>
<div class="stats">
  <div class="stat"><div class="label">Credits used</div><div class="value" id="credits-used">${n(usage.used)}</div></div>
  <div class="stat"><div class="label">Credits remaining</div><div class="value" id="credits-remaining">${n(usage.remaining)}</div></div>
  <div class="stat"><div class="label">Resets on</div><div class="value">${formatDay(usage.resets_at)}</div>
    <div class="label">${formatUtc(usage.resets_at)}</div></div>
</div>
<div class="card">
  <label for="credit-meter">${n(usage.used)} of ${n(limit)} credits used this period</label>
  <progress id="credit-meter" max="${limit}" value="${Math.min(usage.used, limit)}">${n(usage.used)} of ${n(limit)}</progress>
  ${usage.remaining === 0 ? html`<p class="field-error">You have used every credit of this period. Metered calls are refused (402) until ${formatUtc(usage.resets_at)}.</p>` : ""}
  <p class="hint">Each endpoint has a published cost (see the <a href="/docs/api">API reference</a>). Coverage, catalog, errors and
  <code>304 Not Modified</code> answers cost nothing, so refreshing an unchanged workbook is free.</p>
</div>
<section class="card" aria-labelledby="recent-title">
  <h2 id="recent-title">Recent metered calls</h2>
  ${
    usage.recent.length === 0
      ? html`<p class="muted">No metered calls yet.</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Time</th><th scope="col">Endpoint</th><th scope="col">Key</th><th scope="col" class="num">Credits</th></tr></thead>
  <tbody>${usage.recent.map(
    (r) => html`<tr><td>${formatUtc(r.at)}</td><td><code>${r.endpoint}</code></td>
      <td>${names.get(r.key_id) ?? ""} <code class="muted">${r.key_id}</code></td><td class="num">${r.cost}</td></tr>`,
  )}</tbody></table></div>`
  }
</section>`,
  });
}
