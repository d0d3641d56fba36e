// The one stylesheet of the web pages. Kept as a module rather than a .css file so it is served
// from memory in every layout (tsx, jest and the compiled build) without a copy step.
export const SITE_CSS = `
:root {
  --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; --card: #fff;
  --brand: #0f6b3a; --brand-ink: #fff; --brand-dark: #0a4f2a; --danger: #b42318; --danger-bg: #fef3f2;
  --ok-bg: #ecfdf3; --ok-line: #6cc08b; --warn-bg: #fffaeb; --warn-line: #f0b429; --focus: #1a5fd0;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--bg); }
a { color: #0b57d0; }
a:hover { color: #08409c; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem 1rem; z-index: 10; }
header.top { background: #fff; border-bottom: 1px solid var(--line); }
.bar { max-width: 64rem; margin: 0 auto; padding: .75rem 1.25rem; display: flex; flex-wrap: wrap; gap: .75rem 1.5rem;
  align-items: center; }
.brand { font-weight: 700; color: var(--ink); text-decoration: none; display: flex; gap: .5rem; align-items: center; }
.brand .mark { width: 1.6rem; height: 1.6rem; border-radius: .35rem; background: var(--brand); color: #fff;
  display: inline-grid; place-items: center; font-size: .85rem; }
nav.main { display: flex; gap: 1.25rem; flex-wrap: wrap; flex: 1; }
nav.main a { color: var(--muted); text-decoration: none; padding: .25rem 0; border-bottom: 2px solid transparent; }
nav.main a[aria-current="page"] { color: var(--ink); border-bottom-color: var(--brand); font-weight: 600; }
nav.main a:hover { color: var(--ink); }
.who { display: flex; gap: .75rem; align-items: center; color: var(--muted); font-size: .9rem; }
.who form { margin: 0; }
main { max-width: 64rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; overflow-wrap: break-word; }
code { overflow-wrap: anywhere; }
td code, th code { overflow-wrap: normal; } /* tables scroll inside .table-wrap instead of breaking names */
main.narrow { max-width: 28rem; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
p.lead { color: var(--muted); margin: 0 0 1.5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: 1.5rem; margin-bottom: 1.5rem; }
.field { margin-bottom: 1.1rem; }
label { display: block; font-weight: 600; margin-bottom: .3rem; }
.hint { color: var(--muted); font-size: .875rem; margin: .3rem 0 0; }
input[type=email], input[type=password], input[type=text] { width: 100%; font: inherit; padding: .55rem .7rem;
  border: 1px solid #8c959f; border-radius: .4rem; background: #fff; color: var(--ink); }
input[aria-invalid=true] { border-color: var(--danger); border-width: 2px; }
.field-error { color: var(--danger); font-size: .9rem; margin: .35rem 0 0; font-weight: 500; }
.alert { border-radius: .5rem; padding: .8rem 1rem; margin-bottom: 1.25rem; border: 1px solid; }
.alert.error { background: var(--danger-bg); border-color: #f3a59d; color: #7a1a10; }
.alert.ok { background: var(--ok-bg); border-color: var(--ok-line); }
.alert.warn { background: var(--warn-bg); border-color: var(--warn-line); }
button, .button { font: inherit; font-weight: 600; border-radius: .4rem; padding: .55rem 1.1rem; cursor: pointer;
  border: 1px solid var(--brand); background: var(--brand); color: var(--brand-ink); text-decoration: none; display: inline-block; }
button:hover, .button:hover { background: var(--brand-dark); color: #fff; }
button.secondary, .button.secondary { background: #fff; color: var(--ink); border-color: #8c959f; }
button.secondary:hover, .button.secondary:hover { background: var(--bg); color: var(--ink); }
button.danger { background: var(--danger); border-color: var(--danger); }
button.link { background: none; border: 0; color: #0b57d0; padding: 0; font-weight: 400; text-decoration: underline; }
.row { display: flex; gap: .75rem; align-items: flex-end; flex-wrap: wrap; }
.row .field { flex: 1 1 16rem; margin-bottom: 0; }
.secret { display: flex; gap: .5rem; flex-wrap: wrap; margin: .75rem 0; }
.secret input { flex: 1 1 20rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: .95rem; }
th, td { text-align: left; padding: .6rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .85rem; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
.badge { display: inline-block; font-size: .8rem; padding: .1rem .5rem; border-radius: 1rem; border: 1px solid var(--line); }
.badge.live { background: var(--ok-bg); border-color: var(--ok-line); }
.badge.revoked { background: #eaeef2; color: var(--muted); }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 1rem; margin-bottom: 1.5rem; }
.stat { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: 1rem 1.25rem; }
.stat .label { color: var(--muted); font-size: .875rem; }
.stat .value { font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; }
progress { width: 100%; height: .8rem; accent-color: var(--brand); }
.muted { color: var(--muted); }
.hero { padding: 2rem 0 1rem; }
.hero h1 { font-size: 2.2rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; }
footer { max-width: 64rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; color: var(--muted); font-size: .875rem;
  border-top: 1px solid var(--line); }
footer a { color: var(--muted); }
.doc h2 { margin-top: 2rem; } .doc h3 { margin-top: 1.5rem; }
.doc pre { background: #fff; border: 1px solid var(--line); padding: .75rem; border-radius: .4rem; overflow-x: auto; }
@media (max-width: 40rem) {
  h1 { font-size: 1.45rem; } .hero h1 { font-size: 1.7rem; }
  main { padding-top: 1.25rem; } .card { padding: 1.1rem; }
  .keys th:nth-child(4), .keys td:nth-child(4) { display: none; }
}
`;
