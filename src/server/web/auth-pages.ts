// The sign-up and log-in pages.
import { html } from "./html";
import { csrfInput, field, formAlert } from "./form-fields";
import { page } from "./layout";
import { PASSWORD_MAX, PASSWORD_MIN } from "./passwords";

export interface AuthForm {
  csrf: string;
  email?: string;
  errors?: { email?: string; password?: string; form?: string };
  /** Where to go after logging in (a whitelisted account path). */
  next?: string;
  /** A confirmation shown above the form ("You have logged out."). */
  notice?: string;
}

export function signUpPage(f: AuthForm): string {
  const e = f.errors ?? {};
  return page({
    title: "Create your account",
    narrow: true,
    main: html`<h1>Create your account</h1>
<p class="lead">The Explorer plan: 1,000 credits a month, reset on the 1st. No card needed.</p>
<div class="card">
${formAlert(e.form)}
<form method="post" action="/account/signup" novalidate>
  ${csrfInput(f.csrf)}
  ${field({ id: "email", label: "Email", type: "email", value: f.email, error: e.email, autocomplete: "email", maxlength: 254, autofocus: !e.password })}
  ${field({
    id: "password",
    label: "Password",
    type: "password",
    error: e.password,
    autocomplete: "new-password",
    maxlength: PASSWORD_MAX,
    autofocus: Boolean(e.password) && !e.email,
    hint: `At least ${PASSWORD_MIN} characters. A few unrelated words make a strong, memorable password.`,
  })}
  <button type="submit">Create account</button>
</form>
</div>
<p>Already have an account? <a href="/account/login">Log in</a>.</p>`,
  });
}

export function logInPage(f: AuthForm): string {
  const e = f.errors ?? {};
  return page({
    title: "Log in",
    narrow: true,
    main: html`${f.notice ? html`<div class="alert ok" role="status">${f.notice}</div>` : ""}<h1>Log in</h1>
<p class="lead">Manage your API keys and see your credits.</p>
<div class="card">
${formAlert(e.form)}
<form method="post" action="/account/login" novalidate>
  ${csrfInput(f.csrf)}
  ${f.next ? html`<input type="hidden" name="next" value="${f.next}">` : ""}
  ${field({ id: "email", label: "Email", type: "email", value: f.email, error: e.email, autocomplete: "username", maxlength: 254, autofocus: !f.email })}
  ${field({ id: "password", label: "Password", type: "password", error: e.password, autocomplete: "current-password", maxlength: PASSWORD_MAX, autofocus: Boolean(f.email) })}
  <button type="submit">Log in</button>
</form>
</div>
<p>New here? <a href="/account/signup">Create an account</a> — the Explorer plan needs no card.</p>`,
  });
}
