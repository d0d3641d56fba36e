/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: { warnOnly: false } }],
  },
  moduleNameMapper: {
    // office-addin-mock pulls in an ESM-only module through office-addin-manifest, which jest cannot load;
    // its CommonJS entry is enough for what office-addin-mock uses.
    "^office-addin-manifest$": "<rootDir>/node_modules/office-addin-manifest/lib/officeApp.js",
  },
  globalSetup: "<rootDir>/test/helpers/global-setup.ts",
  globalTeardown: "<rootDir>/test/helpers/global-teardown.ts",
  testTimeout: 60000,
};
