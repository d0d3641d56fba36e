// Where the connection settings live in OfficeRuntime.storage. Its own module, free of Office
// types, so Node-side code (the add-in benchmark) can seed a stand-in storage with them.
export const SETTING_KEYS = {
  baseUrl: "prop.connection.baseUrl",
  apiKey: "prop.connection.apiKey",
} as const;
