// Two projects over one run (one snapshot build, one PostgreSQL server: test/helpers/global-setup.ts):
// "sqlite" runs every test with the embedded default store; "postgres" runs the API suite again
// with accounts, keys and credits on PostgreSQL (TEST_STORE=postgres: test/helpers/service.ts),
// so a route that works on one store only fails there, under that project's name.
const base = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  transform: {
    // Transpile-only (isolatedModules): each file is compiled on its own, without type-checking,
    // which takes a quarter of the CPU. The types are checked once per run instead, by
    // `npm test`'s pretest and by CI (tsc over tsconfig.json, which includes test/).
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.jest.json" }],
  },
  moduleNameMapper: {
    // office-addin-mock pulls in an ESM-only module through office-addin-manifest, which jest cannot load;
    // its CommonJS entry is enough for what office-addin-mock uses.
    "^office-addin-manifest$": "<rootDir>/node_modules/office-addin-manifest/lib/officeApp.js",
  },
};

/**
 * The API suite: the files that reach the service through HTTP (startService) and its store
 * interface only. The add-in's files that calculate formulas against the service are not in it:
 * what they test is the formulas, which do not depend on the store behind the service.
 */
const API_SUITE = [
  "test/server/auth.test.ts",
  "test/server/companies-owners.test.ts",
  "test/server/comps-markets.test.ts",
  "test/server/conditional-billing.test.ts",
  "test/server/content-validators.test.ts",
  "test/server/coverage-catalog-openapi.test.ts",
  "test/server/history.test.ts",
  "test/server/key-echo.test.ts",
  "test/server/list-statistics.test.ts",
  "test/server/match-billing.test.ts",
  "test/server/openapi-schemas.test.ts",
  "test/server/parcels-listings.test.ts",
  "test/server/places.test.ts",
  "test/server/properties.test.ts",
  "test/server/property-detail-etag.test.ts",
  "test/server/property-match.test.ts",
];

/** @type {import('jest').Config} */
module.exports = {
  globalSetup: "<rootDir>/test/helpers/global-setup.ts",
  globalTeardown: "<rootDir>/test/helpers/global-teardown.ts",
  testTimeout: 60000,
  // Both of a 2-core machine's cores: jest's default (cores - 1) runs every file in one process.
  maxWorkers: 2,
  projects: [
    { ...base, displayName: "sqlite" },
    {
      ...base,
      displayName: "postgres",
      setupFiles: ["<rootDir>/test/helpers/postgres-project.ts"],
      testMatch: API_SUITE.map((f) => `<rootDir>/${f}`),
    },
  ],
};
