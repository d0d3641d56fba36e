// PROP.CARD(property, [options]): a property as a card (property-card.ts) the analyst opens and
// reads fields of, =A2.[Year built]. `property` is a property id, or a street address that goes
// through PROP.MATCH's own path (the same batched, cached match request): only a unique match
// makes a card, and any other answer is the #N/A naming the candidates that PROP.MATCH gives,
// free of charge. The record comes as PROP.PROPERTY's does (CachedApi.property: the cells
// calculated together go in compare requests of 25), so a card costs what PROP.PROPERTY costs
// for that property, and PROP.PROPERTY cells for it cost nothing more.
// A host without CustomFunctionsRuntime 1.4 cannot show an entity value: the cell holds the
// property id instead, after the record has been fetched (an id the snapshot does not hold is
// #N/A there too, never echoed as if it were a property).
import type { CommercialProperty } from "../contract/records";
import type { FunctionContext } from "./call-context";
import { InputError, NoDataError } from "./excel-errors";
import { isBlank, notOptions } from "./argument-parsers";
import { parseOptions } from "./options";
import { PROPERTY_CARD, buildCard, cardsSupported, type PropertyCard } from "./property-card";
import { parsePropertyId } from "./property-field";
import { matchAddresses } from "./property-match";
import { AS_OF_OPTION, pinCall } from "./snapshot-pin";

/** PROP.CARD's options: the snapshot to answer from, as PROP.PROPERTY takes it. */
export const CARD_OPTIONS = [AS_OF_OPTION];

/** What PROP.CARD's first argument names: a property by its id, or an address to match. */
export type CardSubject = { kind: "id"; id: string } | { kind: "address"; address: string };

/**
 * Reads the first argument: text that starts like an id must be a valid one (a typo in an id is
 * not sent as an address); other text is an address. A number, a flag or an error value is refused.
 */
export function readCardSubject(raw: unknown): CardSubject {
  if (isBlank(raw)) {
    throw new InputError(
      'property is empty: give a property id ("cp_0001a2b3") or a street address ("623 Washington Blvd, Austin, TX 78721").',
    );
  }
  if (typeof raw !== "string") {
    throw new InputError(`property: ${typeof raw === "object" ? "an error value" : String(raw)} is neither a property id nor an address.`);
  }
  const text = raw.trim();
  if (/^cp_/i.test(text)) return { kind: "id", id: parsePropertyId(text, "property") };
  notOptions(text, "property");
  return { kind: "address", address: text };
}

/** The property id a subject names: the id itself, or the address's unique match (else PROP.MATCH's error). */
async function propertyIdOf(subject: CardSubject, ctx: FunctionContext): Promise<string> {
  if (subject.kind === "id") return subject.id;
  const spill = await matchAddresses(subject.address, null, null, null, null, ctx);
  const id = spill[0]?.[0];
  if (typeof id !== "string" || id === "") throw new NoDataError(`"${subject.address}" did not match a property.`);
  return id;
}

/** PROP.CARD: the card of one property (or its id, where the host cannot show cards). */
export async function propertyCard(raw: unknown, options: unknown, ctx: FunctionContext): Promise<PropertyCard | string> {
  const subject = readCardSubject(raw);
  const pinned = pinCall(parseOptions(options, CARD_OPTIONS), ctx);
  const id = await propertyIdOf(subject, pinned);
  const record = (await pinned.session.api.property(id, pinned)) as Partial<CommercialProperty>;
  if (!cardsSupported()) return id;
  const card = buildCard(record, PROPERTY_CARD, await pinned.session.api.serviceUrl());
  // The service answers a record with its id; one without is not a property to show.
  if (!card) throw new NoDataError(`${id}: the service's answer holds no property id.`);
  return card;
}
