// Whether a typed street name is itself a street's name. A name one letter from a property's
// street ("Mill" for "Hill") is a misspelling only when nobody names a street so: the snapshot
// holds some of a city's buildings, never all, and "1068 Mill Dr" may be a real building on a
// real street that the snapshot does not hold. A name is a street's when the match index holds it
// anywhere (its `N|<name>|` keys, read by one seek of the index's primary key, for every version
// a store holds), or when it is a word of the street-name vocabulary the snapshot generator draws
// from, the commonest US street names.
import { nameWord, tokens } from "../../contract/street-address";
import { STREET_WORDS } from "../../snapshot/generate/words";
import { MATCH_KEYS_TABLE, streetKey } from "../../snapshot/match-keys";
import type { SnapshotContext } from "./snapshot-context";

/** The vocabulary's names, each as a street name is compared (nameWord of its tokens). */
const VOCABULARY = new Set(STREET_WORDS.map((w) => tokens(w).map(nameWord).join(" ")));

/**
 * The first key after every `N|<name>|...` key: "|" is followed by "}" in code-point order, and a
 * key's name holds only letters, digits and "#" (tokens), so no name is cut short by it.
 */
const afterName = (name: string) => `${streetKey(name, "").slice(0, -1)}}`;

/** Answers whether a name (its words as compared, joined by a space) is a street's, asking the index once a name per request. */
export function streetNames(snapshot: SnapshotContext): (name: string) => boolean {
  const known = new Map<string, boolean>();
  const sql = `SELECT 1 AS found FROM ${MATCH_KEYS_TABLE} WHERE key >= ? AND key < ? LIMIT 1`;
  return (name) => {
    let is = known.get(name);
    if (is === undefined) {
      is = VOCABULARY.has(name) || snapshot.get(sql, [streetKey(name, ""), afterName(name)]) !== undefined;
      known.set(name, is);
    }
    return is;
  };
}
