// The pages anyone may read: the home page (with how to load the add-in) and the function
// reference (docs/functions.md), where each PROP function's help link in Excel points. The
// API reference is api-reference-page.ts.
import fs from "node:fs";
import path from "node:path";
import type { FastifyPluginCallback } from "fastify";
import { html, SafeHtml } from "./html";
import { page, sendPage, type SignedIn, signedInOf } from "./layout";
import { renderMarkdown } from "./markdown-lite";

function homePage(origin: string, signedIn: SignedIn | undefined): string {
  return page({
    title: "Property data in your Excel models",
    signedIn,
    main: html`<section class="hero">
  <h1>Property data in your Excel models</h1>
  <p class="lead">Parcels, listings, commercial properties, sale comps, markets, owners and tenants, straight into your
  underwriting workbooks with <code>=PROP.SALECOMPS("Austin, TX","industrial")</code> and friends.
  Results are cached, so recalculating a model never spends credits.</p>
  <p class="row">${
    signedIn
      ? html`<a class="button" href="/account">Go to your API keys</a> <a class="button secondary" href="/account/usage">See your usage</a>`
      : html`<a class="button" href="/account/signup">Create a free account</a> <a class="button secondary" href="/account/login">Log in</a>`
  }</p>
</section>
<div class="grid">
  <div class="card"><h2>Explorer plan</h2><p>1,000 credits a month, reset at 00:00 UTC on the 1st. No card needed.
  Each endpoint has a published cost; coverage and catalog calls are free.</p></div>
  <div class="card"><h2>In Excel</h2><p>Custom functions in the <code>PROP</code> namespace spill tables into your sheet, and a task pane
  holds your key and your credit meter.</p></div>
  <div class="card"><h2>From code</h2><p>A plain HTTPS API with bearer keys, problem+json errors and ETags.
  Read the <a href="/docs/api">API reference</a> or fetch the <a href="/v1/openapi.json">OpenAPI document</a>.</p></div>
</div>
<section class="card" id="excel" aria-labelledby="excel-title">
  <h2 id="excel-title">Load the add-in into Excel</h2>
  <ol>
    <li><a href="/account/signup">Create an account</a> and, on the API keys page, create a key. Copy it: it is shown once.</li>
    <li>Get the add-in's manifest: <a href="/addin/manifest.xml"><code>${origin}/addin/manifest.xml</code></a>.
      Office loads add-ins only over HTTPS, so the service must be reached through an <code>https://</code> address
      (on your own computer: <code>npm start</code> with <code>TLS_CERT</code> and <code>TLS_KEY</code> pointing at Office's development certificate).</li>
    <li><strong>Excel on the web</strong>: <strong>Home › Add-ins › More Add-ins › Upload My Add-in</strong>, then choose the manifest.
      <strong>Excel on Windows or Mac</strong>: <code>npx office-addin-debugging start manifest.xml desktop --app excel</code>.</li>
    <li>In Excel, <strong>Home › Show pane</strong>, paste your key, choose <strong>Connect</strong>, then type <code>=PROP.COVERAGE()</code>.</li>
  </ol>
  <p class="hint">The full guide (development certificates, proxies, central deployment) is <code>docs/addin.md</code> in the
  project's repository; every function is described in <code>docs/functions.md</code>.</p>
</section>`,
  });
}

export const publicPages: FastifyPluginCallback<{ docsDir?: string }> = (app, { docsDir }, done) => {
  app.get("/", (req, reply) => sendPage(reply, homePage(`${req.protocol}://${req.host}`, signedInOf(req))));

  // The function reference, rendered once: Excel's "Help on this function" opens its sections
  // (/docs/functions#propmarket), and the manifest's support link opens the page.
  const functionsDoc = docsDir ? path.join(docsDir, "functions.md") : null;
  if (functionsDoc && fs.existsSync(functionsDoc)) {
    let functions: SafeHtml | undefined;
    app.get("/docs/functions", (req, reply) => {
      functions ??= new SafeHtml(renderMarkdown(fs.readFileSync(functionsDoc, "utf8")));
      return sendPage(
        reply,
        page({
          title: "PROP functions",
          current: "docs",
          signedIn: signedInOf(req),
          main: html`<p class="hint">The API itself: <a href="/docs/api">API reference</a>.</p><article class="doc">${functions}</article>`,
        }),
      );
    });
  }
  done();
};
