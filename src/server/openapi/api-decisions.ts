// The decisions behind the API's behaviour, as the API document states them to users.
// docs/api-reference.md is generated from the OpenAPI document that carries this text.
import { PLANS } from "../auth/plans";
import { policyHeader } from "../credits/rate-headers";

const EXPLORER = PLANS.explorer;

export const DECISIONS_MARKDOWN = `The v1 property intelligence API: parcels, listings and commercial property data
over a captured snapshot.

## Conventions
- **Authentication**: every request sends \`Authorization: Bearer <API key>\`. Keys look like
  \`propi_live_<key id>_<secret><checksum>\`. Keys in the query string are never accepted. A missing,
  malformed, unknown or revoked key gets \`401 invalid_api_key\` with \`WWW-Authenticate: Bearer\`.
- **Fields**: snake_case JSON; rows are flat so they map to spreadsheet columns. Every record has \`id\`
  and \`object\` (its resource type). Ratios are fractions (0.065 = 6.5%), marked \`x-unit: fraction\` in
  the schemas; money is USD; areas are square feet (\`_sqft\`) or acres (\`_acres\`); dates are \`YYYY-MM-DD\`.
- **Places**: \`geography\` takes one place in any of these forms: a state (\`TX\`, \`Texas\`), a county
  (\`Travis County, TX\`), a city (\`Austin, TX\`, \`austin tx\`, \`Austin, Texas\`; \`Austin\` alone is the city in
  every state that has one), a ZIP code (\`78704\`) or a metro (\`Austin, TX metro\`, \`metro-austin-tx\`); case,
  spacing and the comma do not matter. Each endpoint says which kinds it serves (the catalog's \`place_kinds\`).
  A place is resolved before any credit is charged: one the snapshot does not hold is \`400 unknown_place\`, a
  city name in several states where one place is needed \`400 ambiguous_place\`, a kind the endpoint cannot
  serve \`400 unsupported_place\`, each free and with up to three \`suggestions\` (places it does hold, usable as
  given). The older \`state_code\`, \`city\`, \`zip\`, \`metro_id\` and \`county_fips\` are checked the same way; a
  place given both ways, or places in different states, are refused rather than answered with nothing.
- **Ranges**: a lower bound above its upper bound (\`min_sale_date\` after \`max_sale_date\`, \`min_price\` above
  \`max_price\`) can match nothing and is refused free (\`400 validation_failed\`).
- **Dates**: every date parameter (\`min_sale_date\`, \`max_sale_date\`, \`from\`, \`to\`, \`as_of\`) takes one
  grammar: a date (\`2026-03-31\`), an Excel date serial (2201 up), a year (\`2026\`: a whole number from 1900 to
  2200 is a year), a quarter (\`2026-Q1\`, \`Q1 2026\`), a month (\`2026-03\`), or a form relative to the capture
  date of the snapshot answering (\`-8Q\`, \`-3Y\`, \`-6M\`, \`LQ\` the last complete quarter, \`YTD\`). A lower bound
  stands for its period's first day, an upper bound (and \`as_of\`) for its last. \`as_of\` takes the fixed forms only.
  Anything else is refused free (\`400 validation_failed\`, naming the forms).
- **Lists**: \`{"object":"list","data":[...],"limit":25,"offset":0,"has_more":true,"next_offset":25,
  "total_count":1834,"snapshot":{"id":...,"captured_at":...}}\`. Paging: \`limit\` 1..100 (default 25),
  \`offset\` 0..10,000. A single record is the bare object.
- **Errors**: RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, a stable
  \`code\`, \`request_id\`, and \`errors[]\` (\`pointer\`, \`parameter\`, \`detail\`) for validation. Codes:
  400 \`validation_failed\` / \`unsupported_filter\` / \`unknown_place\` / \`ambiguous_place\` / \`unsupported_place\` /
  \`ambiguous_name\`, 401 \`invalid_api_key\`, 402 \`credits_exhausted\`,
  404 \`not_found\` / \`snapshot_not_found\`, 413 \`payload_too_large\`, 415 \`unsupported_media_type\`, 429 \`rate_limited\`,
  500 \`internal\`, 503 \`service_unavailable\` (with \`Retry-After\`; free). Unknown query parameters are
  refused with 400 so a misspelt filter never silently matches everything.
- **Caching**: every successful GET has an \`ETag\`; send it back in \`If-None-Match\` to get \`304 Not
  Modified\`, free. A match answer's ETag (and a match row's \`etag\`) is opaque, keyed with a secret only the
  service holds, so it confirms only answers the service has given. The ETag validates the answer's content, not the snapshot it came from: it leaves out
  the \`snapshot\` ref a body names (such ETags are weak, \`W/"…"\`) and a market's \`as_of\`, so after a new
  snapshot a result the new data left as it was revalidates free and only what changed is billed. A
  property's ETag is the same from its detail endpoint and a comparison's \`etags\`; a market's the same
  from its single endpoint and a batch. Batches revalidate too: each market of a batch may carry
  \`if_none_match\` (304 and free when unchanged), and a comparison whose \`if_none_match\` holds every
  property asked as it is costs nothing.
- **Asset-type inputs**: the catalog lists, per asset type, the search inputs this snapshot supports; an
  unsupported one gives \`400 unsupported_filter\` naming the supported inputs.
- **Credits**: each endpoint has a published cost (\`x-credit-cost\`, and \`cost_credits\` in the catalog); the
  markets batch costs that much per distinct market it answers (\`x-credit-cost-per\`, \`cost_per\`), and a match
  request per row whose answer names a property (a match, or candidates): rows that name none are free, and the
  request holds exactly its rows' price, so it is answered whenever the credits left pay for it.
  The Explorer plan has ${EXPLORER.monthlyCredits.toLocaleString("en-US")} credits a month, reset at 00:00 UTC on the 1st. A successful call costs its
  cost; coverage, catalog, errors, \`304 Not Modified\` and a list that matches nothing (\`total_count\` 0) cost
  nothing (a page past the end of a longer result costs its price: it still answers \`total_count\`). When a call costs more than is
  left: \`402 credits_exhausted\` with its \`cost\` and \`resets_at\` (a match request's also with \`rows_covered\`). Every authenticated answer carries
  \`X-Credits-Limit\`, \`X-Credits-Remaining\`, \`X-Credits-Charged\` and \`X-Credits-Reset\`.
- **Rate limits**: per account (all its keys share it), a token bucket of ${EXPLORER.rate.burst} calls refilled at ${EXPLORER.rate.perSecond} per second
  (Explorer); a match request weighs one call per started 100 rows. Beyond it:
  \`429 rate_limited\` with \`Retry-After\` (seconds). Every authenticated answer carries the IETF fields
  \`RateLimit-Policy: ${policyHeader(EXPLORER.rate)}\` (bucket size, seconds to refill completely) and
  \`RateLimit: "burst";r=<calls left>;t=<seconds until full>\`.
- **Browsers (CORS)**: pages on the origins the operator lists in \`CORS_ORIGINS\` may call \`/v1/\` with
  \`Authorization\`, \`Content-Type\` and \`If-None-Match\`, and read the credit, rate-limit, \`ETag\` and
  \`X-Request-Id\` headers. No cookies are ever sent or accepted by the API.
- **Versioning**: the \`/v1\` prefix; changes within v1 are additive only. Lists name the snapshot they came
  from.
- **Snapshots kept, and pinning**: the service keeps the last few snapshots it published (coverage lists them
  in \`snapshots\`, newest first, the \`latest\` marked). Every operation answers from the latest unless it is
  given \`snapshot=<id>\` (a kept snapshot's id, as \`X-Snapshot-Id\` names it) or \`as_of=<date>\` (the
  newest kept snapshot captured on or before that date, in the date grammar above). That snapshot answers everything about the call:
  its body, \`ETag\` and \`X-Snapshot-Id\`. Both at once, or either malformed, is \`400 validation_failed\`; an id
  not kept or a date before every kept capture is \`404 snapshot_not_found\` naming those kept. Free, as every
  refusal.
- **Conformance**: the test suite calls every operation in this document for every status it declares (500
  where a closed snapshot provokes it) and validates each answer's content type, body (JSON Schema 2020-12)
  and headers against it.`;
