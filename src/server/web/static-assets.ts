// The pages' stylesheet and scripts (the files in ./assets), under names that carry a hash of
// their content: a browser may cache them for a year, and a changed file gets a new name. And
// Swagger UI's two files from its npm package, under a path that carries the package's version,
// for the API reference page. Everything is served by the service itself: no page loads
// anything from another site.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginCallback } from "fastify";

/** The files of ./assets (copied beside the compiled code by `npm run build:server`). */
const FILES = {
  "site.css": "text/css; charset=utf-8",
  "copy-key.js": "text/javascript; charset=utf-8",
  "api-reference.js": "text/javascript; charset=utf-8",
} as const;
export type AssetName = keyof typeof FILES;

interface Asset {
  url: string;
  type: string;
  body: Buffer;
}

let loaded: Record<AssetName, Asset> | undefined;

/** Read once, on first use (a page render or the plugin's registration). */
function assets(): Record<AssetName, Asset> {
  return (loaded ??= Object.fromEntries(
    Object.entries(FILES).map(([name, type]) => {
      const body = fs.readFileSync(path.join(__dirname, "assets", name));
      const ext = path.extname(name);
      const url = `/assets/${path.basename(name, ext)}-${crypto.hash("sha256", body, "hex").slice(0, 10)}${ext}`;
      return [name, { url, type, body }];
    }),
  ) as Record<AssetName, Asset>);
}

/** The versioned URL of one of the pages' own files. */
export const assetUrl = (name: AssetName): string => assets()[name].url;

/** Swagger UI's package folder and version, looked up on first use. */
let swagger: { dir: string; prefix: string } | undefined;
function swaggerUiPackage() {
  if (!swagger) {
    const dir = path.dirname(require.resolve("swagger-ui-dist/package.json"));
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
    swagger = { dir, prefix: `/assets/swagger-ui-${version}/` };
  }
  return swagger;
}
const SWAGGER_UI_FILES = new Set(["swagger-ui-bundle.js", "swagger-ui.css"]);

/** The URLs of Swagger UI's script and stylesheet. */
export function swaggerUiUrls(): { js: string; css: string } {
  const { prefix } = swaggerUiPackage();
  return { js: `${prefix}swagger-ui-bundle.js`, css: `${prefix}swagger-ui.css` };
}

/** `config.cache: "immutable"` marks a route whose answer never changes under its URL (see page-headers.ts). */
export const staticAssets: FastifyPluginCallback = (app, _opts, done) => {
  for (const asset of Object.values(assets())) {
    app.get(asset.url, { config: { cache: "immutable" } }, (_req, reply) => reply.type(asset.type).send(asset.body));
  }
  const { dir, prefix } = swaggerUiPackage();
  app.register(fastifyStatic, {
    root: dir,
    prefix,
    // Only the two files the page loads: not the package's source maps, demo page or the rest.
    allowedPath: (file) => SWAGGER_UI_FILES.has(file.replace(/^\//, "")),
    decorateReply: false,
    index: false,
    // The version is in the path, so the files never change under their URL.
    maxAge: "365d",
    immutable: true,
  });
  done();
};
