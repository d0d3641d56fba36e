// The built add-in (task pane, functions, manifest, icons) under /addin/. Source maps stay on
// disk for whoever debugs the build; the service does not hand them out. The functions'
// metadata is the one file another origin may read (see http/cors.ts).
import cors from "@fastify/cors";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginCallback } from "fastify";
import { metadataCors } from "../http/cors";

export interface AddinFilesOptions {
  /** The webpack build's output folder. */
  root: string;
  corsOrigins: string[];
}

export const addinFiles: FastifyPluginCallback<AddinFilesOptions> = (addin, opts, done) => {
  addin.register(cors, metadataCors(opts.corsOrigins));
  addin.register(fastifyStatic, {
    root: opts.root,
    prefix: "/addin/",
    index: ["taskpane.html"],
    allowedPath: (file) => !file.endsWith(".map"),
  });
  done();
};
