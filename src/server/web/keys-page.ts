// The API keys page: create (the key shown once), list, and the way to revoke.
import type { KeySummary } from "../auth/ports";
import { html, formatUtc, type SafeHtml } from "./html";
import { csrfInput, field } from "./form-fields";
import { page, type SignedIn } from "./layout";
import { assetUrl } from "./static-assets";

export interface KeysPageData {
  signedIn: SignedIn;
  keys: KeySummary[];
  maxActive: number;
  /** A key created a moment ago, in full: shown on this one page view only. */
  created?: { rawKey: string; summary?: KeySummary };
  revoked?: KeySummary;
  nameValue?: string;
  nameError?: string;
  origin: string;
}

function createdKey(created: NonNullable<KeysPageData["created"]>): SafeHtml {
  return html`<section class="alert warn" aria-labelledby="new-key-title" id="new-key">
  <h2 id="new-key-title">Your new key${created.summary ? html` “${created.summary.name}”` : ""}</h2>
  <p><strong>Copy this key now. It cannot be shown again:</strong> we keep only a one-way hash of it.
  If you lose it, create a new key and revoke this one.</p>
  <div class="secret">
    <label for="new-key-value" class="skip">New API key</label>
    <input id="new-key-value" type="text" readonly value="${created.rawKey}" spellcheck="false" autocomplete="off">
    <button type="button" data-copy-target="new-key-value" data-copy-status="copy-status">Copy</button>
  </div>
  <p id="copy-status" role="status" class="muted"></p>
</section>`;
}

function keyRow(k: KeySummary): SafeHtml {
  return html`<tr>
  <td>${k.name}</td>
  <td><code>${k.key_id}</code>${k.environment === "test" ? html` <span class="badge">test</span>` : ""}</td>
  <td><code>…${k.last_chars}</code></td>
  <td>${formatUtc(k.created_at)}</td>
  <td>${k.last_used_at ? formatUtc(k.last_used_at) : html`<span class="muted">Never</span>`}</td>
  <td>${
    k.revoked_at
      ? html`<span class="badge revoked">Revoked ${formatUtc(k.revoked_at)}</span>`
      : html`<span class="badge live">Active</span> <a href="/account/keys/${k.key_id}/revoke">Revoke<span class="skip"> ${k.name}</span></a>`
  }</td>
</tr>`;
}

export function keysPage(d: KeysPageData): string {
  const active = d.keys.filter((k) => !k.revoked_at).length;
  return page({
    title: "API keys",
    current: "keys",
    signedIn: d.signedIn,
    scripts: d.created ? [assetUrl("copy-key.js")] : [],
    main: html`<h1>API keys</h1>
<p class="lead">A key lets a workbook or a script call the API. Give each integration its own key, so you can revoke one without breaking the others.</p>
${d.created ? createdKey(d.created) : ""}
${d.revoked ? html`<div class="alert ok" role="status">Key “${d.revoked.name}” (<code>${d.revoked.key_id}</code>) is revoked. Requests with it are refused from now on.</div>` : ""}
<section class="card" aria-labelledby="create-title">
  <h2 id="create-title">Create a key</h2>
  <form method="post" action="/account/keys" novalidate>
    ${csrfInput(d.signedIn.csrf)}
    <div class="row">
      ${field({
        id: "name",
        label: "Name this integration",
        type: "text",
        value: d.nameValue,
        error: d.nameError,
        autocomplete: "off",
        maxlength: 100,
        autofocus: Boolean(d.nameError),
        hint: "For example “Underwriting model” or “Excel on my laptop”.",
      })}
      <button type="submit">Create key</button>
    </div>
  </form>
  <p class="hint">${active} of ${d.maxActive} active keys in use.</p>
</section>
<section class="card" aria-labelledby="list-title">
  <h2 id="list-title">Your keys</h2>
  ${
    d.keys.length === 0
      ? html`<p class="muted">No keys yet. Create one above.</p>`
      : html`<div class="table-wrap"><table class="keys">
  <thead><tr><th scope="col">Name</th><th scope="col">Key id</th><th scope="col">Ends with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
  <tbody>${d.keys.map(keyRow)}</tbody></table></div>`
  }
</section>
<section class="card" aria-labelledby="use-title">
  <h2 id="use-title">Use a key</h2>
  <p>In Excel: open the Property Intelligence pane (<strong>Home › Show pane</strong>), paste the key and choose <strong>Connect</strong>.
  New to the add-in? <a href="/#excel">Load it into Excel</a>.</p>
  <p>From a script, send it in the <code>Authorization</code> header (see the <a href="/docs/api">API reference</a>):</p>
  <pre><code>curl -H "Authorization: Bearer $KEY" ${d.origin}/v1/commercial/coverage</code></pre>
</section>`,
  });
}

export function revokePage(signedIn: SignedIn, key: KeySummary): string {
  return page({
    title: "Revoke key",
    current: "keys",
    signedIn,
    narrow: true,
    main: html`<h1>Revoke “${key.name}”?</h1>
<div class="card">
  <p>Key <code>${key.key_id}</code> (ending <code>…${key.last_chars}</code>) stops working at once: every workbook or script
  that uses it gets “invalid API key” from its next request. This cannot be undone.</p>
  <form method="post" action="/account/keys/${key.key_id}/revoke" class="row">
    ${csrfInput(signedIn.csrf)}
    <button type="submit" class="danger">Revoke key</button>
    <a class="button secondary" href="/account">Cancel</a>
  </form>
</div>`,
  });
}
