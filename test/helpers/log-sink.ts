// Captures what the service logs, so tests can search it (for secrets, for error details).
import { Writable } from "node:stream";

export function logSink(): { stream: Writable; text: () => string } {
  let log = "";
  const stream = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  return { stream, text: () => log };
}
