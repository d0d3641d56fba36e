// Builds the Excel add-in into dist/addin/, which the service serves under /addin/.
//   npm run build:addin           (webpack --mode production)
//   ADDIN_ORIGIN=https://localhost:3000 npm run build:addin
// See docs/addin.md for what each output file is for.
"use strict";

const path = require("node:path");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const webpack = require("webpack");
// The functions' argument suggestions are built from the TypeScript lists the functions check
// their arguments against (src/functions/argument-choices.ts); tsx loads them here.
const { require: requireTs } = require("tsx/cjs/api");

const OUTPUT_DIR = path.resolve(__dirname, "dist/addin");
const OFFICE_JS_DIR = path.resolve(__dirname, "node_modules/@microsoft/office-js/dist");

/**
 * The files whose JSDoc declares the PROP functions. The metadata plugin writes functions.json
 * from all of them and appends each file's CustomFunctions.associate calls; all of them are
 * entry modules of functions.js, so every association runs when it loads.
 */
const FUNCTION_FILES = ["./src/functions/functions.ts", "./src/functions/search-functions.ts", "./src/functions/helper-functions.ts"];

/** The origin manifest.xml is written with; the build replaces it with ADDIN_ORIGIN. */
const SOURCE_ORIGIN = "http://localhost:3000";

// Office loads the host-specific scripts and UI strings from beside office.js at run time, so
// those are copied too. Only what Excel needs: no other hosts, no .debug.js twins.
const OFFICE_JS_FILES = [
  "office.js",
  "o15apptofilemappingtable.js",
  "excel*.js",
  "*/office_strings.js",
  "telemetry/oteljs_agave.js",
  "ariatelemetry/aria-web-telemetry.js",
  "webauth/webauth.browserauth.js",
];

/** Reads ADDIN_ORIGIN (an origin only: scheme, host, port); throws on anything else. */
function addinOrigin(value = process.env.ADDIN_ORIGIN) {
  if (!value) return SOURCE_ORIGIN;
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`ADDIN_ORIGIN must be an origin such as https://localhost:3000, got "${value}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search || url.hash) {
    throw new Error(`ADDIN_ORIGIN must be just an origin such as https://localhost:3000, got "${value}"`);
  }
  return url.origin;
}

/** The manifest as served from `origin`: every URL keeps its /addin/... path. */
function manifestForOrigin(xml, origin) {
  return xml.split(SOURCE_ORIGIN).join(origin);
}

/**
 * The custom functions' metadata as served from `origin`: each function's help link (JSDoc
 * @helpurl, written with SOURCE_ORIGIN) points at the function reference that origin serves.
 * (The generator already sets allowCustomDataForDataTypeAny, which lets the functions return
 * formatted numbers: dates and percentages.)
 */
function functionsMetadataForOrigin(json, origin) {
  return json.split(SOURCE_ORIGIN).join(origin);
}

/**
 * functions.json with Excel's AutoComplete suggestions for arguments such as asset_type,
 * metric and field (custom enums; hosts without CustomFunctionsRuntime 1.5 ignore them).
 */
function functionsMetadataWithChoices(json) {
  const { withArgumentChoices } = requireTs("./src/functions/argument-choices.ts", __filename);
  return `${JSON.stringify(withArgumentChoices(JSON.parse(json)), null, 4)}\n`;
}

class FunctionsMetadataOriginPlugin {
  constructor(origin) {
    this.origin = origin;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap("FunctionsMetadataOriginPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "FunctionsMetadataOriginPlugin", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONS },
        () => {
          const asset = compilation.getAsset("functions.json");
          if (!asset) return;
          const json = functionsMetadataWithChoices(functionsMetadataForOrigin(asset.source.source().toString(), this.origin));
          compilation.updateAsset("functions.json", new webpack.sources.RawSource(json));
        },
      );
    });
  }
}

function config(_env, argv) {
  const origin = addinOrigin();
  return {
    mode: argv.mode || "production",
    // Maps are written beside the bundles for debugging, but the bundles do not point at them
    // and the service does not serve them.
    devtool: "hidden-source-map",
    // Both bundles run in one page (the shared runtime). dependOn makes taskpane.js reuse the
    // modules functions.js already loaded (settings, API client), so there is one copy of each
    // and one module state, while functions.js stays loadable on its own.
    entry: {
      functions: FUNCTION_FILES,
      taskpane: { import: "./src/taskpane/taskpane.ts", dependOn: "functions" },
    },
    output: {
      path: OUTPUT_DIR,
      filename: "[name].js",
      publicPath: "",
      clean: true,
      // Every build writes every file, so a file's time is the build's: the test harness and
      // npm start judge a build stale by it (an unchanged functions.js is still this build's).
      compareBeforeEmit: false,
    },
    resolve: { extensions: [".ts", ".tsx", ".js"] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          // Type-checked against the add-in's own tsconfig: a type error fails the build.
          use: { loader: "ts-loader", options: { configFile: "tsconfig.addin.json" } },
        },
      ],
    },
    performance: {
      // React and Fluent UI v9 make the pane's bundle ~434 KiB minified (~128 KiB gzipped). It is
      // loaded once per Excel session from the service beside it, so 600 KiB is the budget.
      maxAssetSize: 600 * 1024,
      maxEntrypointSize: 750 * 1024,
      // office.js and its host scripts are copied files, not bundles; the bundles stay small.
      assetFilter: (file) => file.endsWith(".js") && !file.startsWith("office-js/"),
    },
    plugins: [
      new CustomFunctionsMetadataPlugin({ input: FUNCTION_FILES, output: "functions.json" }),
      new FunctionsMetadataOriginPlugin(origin),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        chunks: ["functions", "taskpane"],
        chunksSortMode: "manual",
        scriptLoading: "defer",
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*.png", to: "assets/[name][ext]" },
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform: (content) => manifestForOrigin(content.toString("utf8"), origin),
          },
          {
            // One glob, so [path] keeps the sub-folders office.js expects (en-us/, telemetry/, ...).
            from: `{${OFFICE_JS_FILES.join(",")}}`,
            context: OFFICE_JS_DIR,
            to: "office-js/[path][name][ext]",
            globOptions: { ignore: ["**/*.debug.js"] },
            // Already minified by Microsoft: `minimized` keeps Terser from spending minutes on them.
            info: { minimized: true },
          },
          { from: "LICENSE.md", context: path.dirname(OFFICE_JS_DIR), to: "office-js/LICENSE.md" },
        ],
      }),
    ],
  };
}

module.exports = config;
module.exports.addinOrigin = addinOrigin;
module.exports.manifestForOrigin = manifestForOrigin;
module.exports.functionsMetadataForOrigin = functionsMetadataForOrigin;
module.exports.functionsMetadataWithChoices = functionsMetadataWithChoices;
