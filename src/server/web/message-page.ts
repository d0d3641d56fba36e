// A page that only says something: not found, form expired, an error on our side.
import { html } from "./html";
import { page, type SignedIn } from "./layout";

export function messagePage(title: string, message: string, signedIn?: SignedIn, requestId?: string): string {
  return page({
    title,
    narrow: true,
    signedIn,
    main: html`<h1>${title}</h1>
<div class="card"><p>${message}</p>
${requestId ? html`<p class="muted">Request id <code>${requestId}</code> — quote it if you contact us.</p>` : ""}
<p><a href="/account">Back to your account</a></p></div>`,
  });
}
