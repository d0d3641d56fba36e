// The stylesheet and script, under names that carry a hash of their content: a browser may
// cache them for a year, and a changed file gets a new name.
import crypto from "node:crypto";
import type { FastifyInstance } from "fastify";
import { COPY_KEY_JS } from "./copy-key-script";
import { SITE_CSS } from "./site-css";

const versioned = (name: string, ext: string, body: string) =>
  `/assets/${name}-${crypto.hash("sha256", body, "hex").slice(0, 10)}.${ext}`;

export const ASSETS = {
  css: versioned("site", "css", SITE_CSS),
  copyJs: versioned("copy-key", "js", COPY_KEY_JS),
};

export function registerAssets(app: FastifyInstance): void {
  const serve = (url: string, type: string, body: string) =>
    // The cache header itself is set by the page-headers hook (after the app's ETag hook).
    app.get(url, { config: { cache: "immutable" } }, (_req, reply) => reply.type(type).send(body));
  serve(ASSETS.css, "text/css; charset=utf-8", SITE_CSS);
  serve(ASSETS.copyJs, "text/javascript; charset=utf-8", COPY_KEY_JS);
}
