// The "postgres" jest project: its tests build the service over PostgreSQL stores (helpers/service.ts).
process.env.TEST_STORE = "postgres";
