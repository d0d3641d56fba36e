// The interactive API reference at /docs/api: Swagger UI, served by this service from its npm
// package (swagger-ui-dist), reading the OpenAPI document the service serves at
// /v1/openapi.json. Operations, parameters, records and errors come from the same schemas the
// server validates with, and "Try it out" calls this service with the visitor's own key.
//
// The page's Content-Security-Policy differs from the other pages' in one directive:
// `connect-src 'self'`, so the page may fetch the document and try calls on this origin only.
// Swagger UI needs no inline script or style (its styles are set through the DOM, which CSP allows).
import type { FastifyPluginCallback } from "fastify";
import { html } from "./html";
import { page, sendPage, signedInOf } from "./layout";
import { pageCsp } from "./page-headers";
import { assetUrl, swaggerUiUrls } from "./static-assets";

export const OPENAPI_URL = "/v1/openapi.json";

export const apiReferencePage: FastifyPluginCallback = (app, _opts, done) => {
  app.get("/docs/api", { helmet: { contentSecurityPolicy: pageCsp({ connectSrc: ["'self'"] }) } }, (req, reply) => {
    const ui = swaggerUiUrls();
    return sendPage(
      reply,
      page({
        title: "API reference",
        current: "docs",
        signedIn: signedInOf(req),
        styles: [ui.css],
        scripts: [ui.js, assetUrl("api-reference.js")],
        main: html`<h1>API reference</h1>
<p class="lead">Every endpoint of the v1 API, its parameters, answers and credit cost, from the
  <a href="${OPENAPI_URL}">OpenAPI document</a> the service serves. To try a call, choose <strong>Authorize</strong>
  and paste one of your <a href="/account">API keys</a>: calls spend credits like any other
  (see your <a href="/account/usage">usage</a>).</p>
<div id="api-reference" class="api-reference" data-openapi-url="${OPENAPI_URL}">
  <p class="muted">The reference needs JavaScript. Without it, read the <a href="${OPENAPI_URL}">OpenAPI document</a>
  or <code>docs/api-reference.md</code> in the project's repository.</p>
</div>`,
      }),
    );
  });
  done();
};
