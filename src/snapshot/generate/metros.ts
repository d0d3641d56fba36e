// Metro areas, grown from principal cities: every city of 200k+ people and the largest city of
// each state (so every state and DC has a metro of its own). A 200k+ city within 40 km of a
// larger principal is part of that metro rather than a metro of its own (Brooklyn joins New
// York City). Other cities join the nearest principal whose reach covers them; the reach grows
// with the principal's size (about 60 km for a city of 800k). Cities beyond every reach are
// non-metro. Each metro also carries a price index used for rents, values and cap rates.
import { metroId, metroName } from "../geo-keys";
import type { City, Metro } from "./geo-types";

export type { Metro } from "./geo-types";
import { distanceKm } from "./distance";

const PRINCIPAL_POPULATION = 200_000;
const MERGE_KM = 40;

/** Gateway markets where rents and values run well above their size (principal name|state). */
const GATEWAY_PREMIUM: Record<string, number> = {
  "New York City|NY": 1.5,
  "San Francisco|CA": 1.6,
  "San Jose|CA": 1.5,
  "Boston|MA": 1.35,
  "Los Angeles|CA": 1.35,
  "Seattle|WA": 1.3,
  "Washington|DC": 1.3,
  "Honolulu|HI": 1.3,
  "San Diego|CA": 1.25,
  "Miami|FL": 1.2,
  "Denver|CO": 1.1,
  "Austin|TX": 1.1,
  "Portland|OR": 1.05,
};

function reachOf(population: number): number {
  return Math.min(90, Math.max(30, 40 + 10 * Math.log2(population / PRINCIPAL_POPULATION)));
}

function choosePrincipals(cities: City[]): City[] {
  const largestInState = new Map<string, City>();
  for (const c of cities) if (!largestInState.has(c.state)) largestInState.set(c.state, c); // cities are sorted by population
  const chosen: City[] = [];
  for (const c of cities) {
    const isLargest = largestInState.get(c.state) === c;
    if (!isLargest && c.population < PRINCIPAL_POPULATION) continue;
    if (!isLargest && chosen.some((p) => distanceKm(p.lat, p.lon, c.lat, c.lon) < MERGE_KM)) continue;
    chosen.push(c);
  }
  return chosen;
}

export function buildMetros(cities: City[]): Metro[] {
  const metros: Metro[] = choosePrincipals(cities).map((p, index) => ({
    index,
    id: metroId(p.name, p.state),
    name: metroName(p.name, p.state),
    state: p.state,
    principal: p,
    reachKm: reachOf(p.population),
    population: 0,
    priceIndex: 1,
  }));
  const byPrincipal = new Map(metros.map((m) => [m.principal, m]));
  for (const c of cities) {
    let best = byPrincipal.get(c) ?? null;
    if (!best) {
      let bestD = Infinity;
      for (const m of metros) {
        const d = distanceKm(m.principal.lat, m.principal.lon, c.lat, c.lon);
        if (d <= m.reachKm && d < bestD) {
          best = m;
          bestD = d;
        }
      }
    }
    c.metro = best;
    if (best) best.population += c.population;
  }
  for (const m of metros) {
    const base = Math.min(1.1, Math.max(0.72, 0.75 + 0.06 * Math.log2(m.population / 250_000)));
    m.priceIndex = round3(base * (GATEWAY_PREMIUM[`${m.principal.name}|${m.state}`] ?? 1));
  }
  return metros;
}

/** Price level of a place: its metro's, or a small-town level that rises slowly with size. */
export function priceIndexOf(city: City): number {
  if (city.metro) return city.metro.priceIndex;
  return round3(Math.min(0.72, Math.max(0.6, 0.55 + 0.03 * Math.log2(city.population / 5_000 + 1))));
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
