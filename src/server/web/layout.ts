// The page shell every web page shares: head, top bar, footer.
import type { FastifyReply, FastifyRequest } from "fastify";
import { html, type SafeHtml } from "./html";
import { assetUrl } from "./static-assets";

export interface SignedIn {
  email: string;
  /** The CSRF token of the session, for the log-out form. */
  csrf: string;
}

/** The signed-in visitor as the top bar shows one (their email and the log-out form's token). */
export function signedInOf(req: FastifyRequest): SignedIn | undefined {
  const v = req.visitor;
  return v ? { email: v.account.email, csrf: v.csrf } : undefined;
}

export const sendPage = (reply: FastifyReply, body: string) => reply.type("text/html; charset=utf-8").send(body);

export interface PageOptions {
  title: string;
  main: SafeHtml;
  signedIn?: SignedIn;
  /** Which top-bar link is the current page. */
  current?: "keys" | "usage" | "docs";
  narrow?: boolean;
  /** More stylesheets, after the site's own. */
  styles?: string[];
  /** Scripts, run in order once the page is parsed. */
  scripts?: string[];
}

function nav(current: PageOptions["current"], signedIn: boolean): SafeHtml {
  const link = (href: string, label: string, id: PageOptions["current"]) =>
    html`<a href="${href}"${current === id ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<nav class="main" aria-label="Main">
    ${signedIn ? [link("/account", "API keys", "keys"), link("/account/usage", "Usage", "usage")] : ""}
    ${link("/docs/api", "API reference", "docs")}
    <a href="/#excel">Use in Excel</a>
  </nav>`;
}

function who(signedIn: SignedIn | undefined): SafeHtml {
  if (!signedIn) {
    return html`<div class="who"><a href="/account/login">Log in</a><a class="button" href="/account/signup">Sign up</a></div>`;
  }
  return html`<div class="who"><span>${signedIn.email}</span>
    <form method="post" action="/account/logout"><input type="hidden" name="csrf" value="${signedIn.csrf}">
      <button type="submit" class="secondary">Log out</button></form></div>`;
}

export function page(o: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Property Intelligence</title>
<link rel="stylesheet" href="${assetUrl("site.css")}">
${(o.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}
${(o.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="top"><div class="bar">
  <a class="brand" href="/"><span class="mark" aria-hidden="true">PI</span>Property Intelligence</a>
  ${nav(o.current, Boolean(o.signedIn))}
  ${who(o.signedIn)}
</div></header>
<main id="content"${o.narrow ? html` class="narrow"` : ""}>
${o.main}
</main>
<footer>Property Intelligence for Excel · <a href="/docs/api">API reference</a> ·
  <a href="/v1/openapi.json">OpenAPI document</a> · <a href="/#excel">Load the add-in</a></footer>
</body>
</html>
`.text;
}
