// What the trailing `options` argument's keys are and what their values read as: a service
// input (a ParamSpec, read by param-values.ts) or a table and shaping option the add-in
// applies itself. Types only, so every module that declares options can name them without
// importing the parser (options.ts).
import type { ParamSpec } from "../shared/endpoints";

/** A service input's value after checking: text or a number. */
export type ParamValue = string | number;

/** A table or shaping option (not sent to the service). */
export interface LocalOption {
  name: string;
  kind: "boolean" | "list" | "choice" | "count" | "pin";
  /** choice: the allowed values; count: the bounds. */
  values?: readonly string[];
  min?: number;
  max?: number;
  help: string;
}

export type OptionSpec = ParamSpec | LocalOption;
export type OptionValue = ParamValue | boolean | string[];
