// How the service reports credits (docs/decisions.md, "Credits"): the headers on every answer to
// a call with a valid key, and the members of a 402 `credits_exhausted` problem. The service
// sends and publishes them by these names; the add-in reads them by the same names.
import { Type, type Static } from "@sinclair/typebox";

/** The credit headers, each with what it holds. */
export const CREDIT_HEADERS = {
  plan: "X-Credits-Plan",
  limit: "X-Credits-Limit",
  remaining: "X-Credits-Remaining",
  charged: "X-Credits-Charged",
  reset: "X-Credits-Reset",
} as const;

/** What a 402 `credits_exhausted` problem carries besides the standard members. */
export const CreditsExhaustedFields = {
  cost: Type.Integer({ description: "402: what the call costs." }),
  credits_remaining: Type.Integer({ description: "402: credits left this period." }),
  credits_limit: Type.Integer({ description: "402: the plan's credits per month." }),
  resets_at: Type.String({ format: "date-time", description: "402: when the credits reset." }),
  rows_covered: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        "402 of a call priced per row (a match request): how many of its rows, from the first, the credits left pay for. " +
        "Send those rows alone and the call is answered.",
    }),
  ),
};
export const CreditsExhausted = Type.Object(CreditsExhaustedFields);
export type CreditsExhausted = Static<typeof CreditsExhausted>;
