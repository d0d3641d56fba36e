// The account area's own error pages, in HTML: a form it cannot read, a page that is not there
// under /account, and a failure on our side (logged with its request id, which the page shows).
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { OUTAGE_RETRY_AFTER_S, isStoreOutage, outageCause } from "../db/store-outage";
import { messagePage } from "./message-page";

const sendHtml = (reply: FastifyReply, status: number, body: string) => reply.code(status).type("text/html; charset=utf-8").send(body);

export function htmlErrorPages(web: FastifyInstance): void {
  web.setErrorHandler((err: FastifyError, req, reply) => {
    if (isStoreOutage(err)) {
      // The database restarting, stopped or hung (db/store-outage.ts): try again shortly.
      req.log.warn({ cause: outageCause(err) }, "store unavailable: page answered 503");
      reply.header("Retry-After", String(OUTAGE_RETRY_AFTER_S));
      const message = `The service cannot reach its account store just now. Please try again in ${OUTAGE_RETRY_AFTER_S} seconds.`;
      return sendHtml(reply, 503, messagePage("Service unavailable", message, undefined, String(req.id)));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, "web page failed");
    const [title, message] =
      status === 500
        ? ["Something went wrong", "Something went wrong on our side. Please try again in a moment."]
        : status === 413
          ? ["Form too large", "That form was larger than we accept."]
          : ["Request not understood", "The form could not be read. Go back, reload the page and try again."];
    return sendHtml(reply, status, messagePage(title, message, undefined, String(req.id)));
  });
  // Under /account only: other unknown paths are the app's (problem+json, like the API's).
  web.register(
    (account, _opts, done) => {
      account.setNotFoundHandler((_req, reply) => sendHtml(reply, 404, messagePage("Page not found", "There is no page at this address.")));
      done();
    },
    { prefix: "/account" },
  );
}
