// The notices of pinned formulas and retention, shown in Status and Refresh: cells pinned to
// data no longer served (they keep their values), and cells whose snapshot retires within 30
// days ("freeze these values now"). Read from the last refresh's formulas and the kept list
// of the latest coverage report; nothing shows when there is nothing to say.
import { MessageBar, MessageBarBody } from "@fluentui/react-components";
import type { KeptSnapshot } from "../../contract/snapshot-select";
import { pinNoticeLines, pinNotices, type PinnedCell } from "../pin-notices";

export function PinNotices({
  pinned,
  kept,
  now = new Date(),
}: {
  pinned: readonly PinnedCell[] | undefined;
  kept: KeptSnapshot[] | undefined;
  now?: Date;
}) {
  const lines = pinNoticeLines(pinNotices(pinned ?? [], kept, now), now);
  if (lines.length === 0) return null;
  return (
    <div className="pin-notices" role="status" aria-label="Pinned data">
      {lines.map((line) => (
        <MessageBar key={line.intent} intent={line.intent} layout="multiline" className="pin-notice">
          <MessageBarBody>{line.text}</MessageBarBody>
        </MessageBar>
      ))}
    </div>
  );
}
