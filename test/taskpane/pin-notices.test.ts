// The pane's notices of pinned formulas: cells pinned to data no longer served, and cells whose
// snapshot retires within 30 days ("freeze these values now"), from the formulas' text and
// coverage's kept list.
import { RETIRING_DAYS, formulaPins, pinNoticeLines, pinNotices, pinnedCells } from "../../src/taskpane/pin-notices";

const kept = [
  {
    id: "snap_dec",
    captured_at: "2026-12-01T00:00:00Z",
    built_at: "2026-12-01T00:00:00Z",
    retires_at: "2028-12-01T00:00:00Z",
    latest: true,
  },
  {
    id: "snap_nov",
    captured_at: "2025-01-01T00:00:00Z",
    built_at: "2025-01-01T00:00:00Z",
    retires_at: "2027-01-01T00:00:00Z",
    latest: false,
  },
];
const now = new Date("2026-12-10T00:00:00Z");

test("the pins of a formula's as_of options: ids and fixed dates, each once; other text is no pin", () => {
  expect(formulaPins('=PROP.PROPERTY(A2,"name","as_of=snap_nov; dates=text")')).toEqual([{ snapshot: "snap_nov" }]);
  expect(formulaPins('=PROP.MARKET("TX","office",,"as_of=2025-03-31")+PROP.MARKET("TX","retail",,"AS_OF = 2025-03-31")')).toEqual([
    { as_of: "2025-03-31" },
  ]);
  expect(formulaPins('=PROP.PROPERTY(A2,"name","as_of=2025-Q1")')).toEqual([{ as_of: "2025-03-31" }]);
  expect(formulaPins('=PROP.PROPERTY(A2,"name","as_of=LQ")')).toEqual([]);
  expect(formulaPins('=PROP.PROPERTY(A2,"name")')).toEqual([]);
});

test("cells pinned to data no longer served are retired; cells whose snapshot retires within 30 days are retiring; the latest never is", () => {
  const cells = pinnedCells([
    { address: "Sheet1!B2", formula: '=PROP.PROPERTY(A2,"name","as_of=2024-06-30")' },
    { address: "Sheet1!B3", formula: '=PROP.PROPERTY(A3,"name","as_of=snap_gone")' },
    { address: "Sheet1!B4", formula: '=PROP.PROPERTY(A4,"name","as_of=2025-06-30")' },
    { address: "Sheet1!B5", formula: '=PROP.PROPERTY(A5,"name","as_of=snap_dec")' },
    { address: "Sheet1!B6", formula: '=PROP.PROPERTY(A6,"name")' },
  ]);
  const notices = pinNotices(cells, kept, now);
  expect(notices.retired.map((c) => c.address)).toEqual(["Sheet1!B2", "Sheet1!B3"]);
  expect(notices.retiring.map((c) => [c.address, c.snapshot.id])).toEqual([["Sheet1!B4", "snap_nov"]]);
  // More than 30 days ahead: nothing to announce yet.
  expect(pinNotices(cells, kept, new Date(Date.parse("2027-01-01T00:00:00Z") - (RETIRING_DAYS + 1) * 86_400_000)).retiring).toEqual([]);
  // Without a kept list (a service that lists none), nothing is claimed.
  expect(pinNotices(cells, undefined, now)).toEqual({ retired: [], retiring: [] });
});

test("the pane's lines name the cells, say the values are kept, and say to freeze the retiring ones now", () => {
  const cells = pinnedCells([
    { address: "Sheet1!B2", formula: '=PROP.PROPERTY(A2,"name","as_of=2024-06-30")' },
    { address: "Sheet1!B4", formula: '=PROP.PROPERTY(A4,"name","as_of=snap_nov")' },
  ]);
  expect(pinNoticeLines(pinNotices(cells, kept, now), now)).toEqual([
    {
      intent: "error",
      text: "1 cell is pinned to data the service no longer serves (Sheet1!B2): they keep the values they had. Freeze these values (Freeze tab) to keep them as plain values, or move the pin to the latest.",
    },
    {
      intent: "warning",
      text: "1 cell is pinned to snapshot snap_nov, which the service stops serving on 2027-01-01 (in 22 days) (Sheet1!B4): freeze these values now, or move the pin to the latest.",
    },
  ]);
  expect(pinNoticeLines({ retired: [], retiring: [] }, now)).toEqual([]);
});
