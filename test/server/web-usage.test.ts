// The usage page: plan, credits used and remaining this period, reset date, recent metered calls.
import { PASSWORD, startWebService } from "./web-client";

let svc: Awaited<ReturnType<typeof startWebService>>;
beforeEach(async () => {
  svc = await startWebService(new Date("2026-11-30T23:00:00Z"));
});
afterEach(() => svc.app.close());

const value = (body: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(body)?.[1];

test("shows the plan, the period's credits, the reset date and each metered call with its cost", async () => {
  const c = svc.client();
  await c.signUp("me@example.com", PASSWORD);
  const key = await c.createKey("Model");
  const empty = await c.get("/account/usage");
  expect(empty.body).toContain("Explorer plan: 1,000 credits a month.");
  expect(value(empty.body, "credits-used")).toBe("0");
  expect(value(empty.body, "credits-remaining")).toBe("1,000");
  expect(empty.body).toContain("1 December 2026");
  expect(empty.body).toContain("No metered calls yet.");

  const id = (await svc.api(key, "/v1/commercial/properties?limit=1")).json().data[0].id;
  expect((await svc.api(key, `/v1/commercial/properties/${id}`)).statusCode).toBe(200); // 1 credit
  expect((await svc.api(key, "/v1/commercial/coverage")).statusCode).toBe(200); // free
  expect((await svc.api(key, "/v1/commercial/properties/cp_nope")).statusCode).toBe(404); // errors are free
  const page = await c.get("/account/usage");
  expect(value(page.body, "credits-used")).toBe("2");
  expect(value(page.body, "credits-remaining")).toBe("998");
  const rows = [
    ...page.body.matchAll(/<tr><td>([^<]+)<\/td><td><code>([^<]+)<\/code><\/td>[\s\S]*?<td class="num">(\d+)<\/td><\/tr>/g),
  ].map((m) => [m[1], m[2], Number(m[3])]);
  expect(rows).toEqual([
    ["2026-11-30 23:00 UTC", "GET /v1/commercial/properties/{property_id}", 1],
    ["2026-11-30 23:00 UTC", "GET /v1/commercial/properties", 1],
  ]);
  expect(page.body).toContain('<progress id="credit-meter" max="1000" value="2">');

  // A new month starts from zero and resets on the 1st of the next.
  svc.advance(2 * 60 * 60 * 1000);
  const december = await c.get("/account/usage");
  expect(value(december.body, "credits-used")).toBe("0");
  expect(december.body).toContain("1 January 2027");
  expect(december.body).toContain("this period is 2026-12");
});
