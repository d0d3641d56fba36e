// The proxy machinery of the stand-in Excel API, with the semantics add-ins depend on:
// every call on a proxy is queued and runs, in order, at context.sync(); a property can be
// read only after load() and a sync (else PropertyNotLoaded); *OrNullObject proxies say
// isNullObject after a sync; an error in the queue rejects sync and skips the rest of it.
import type { Calculation } from "./calculation";
import type { WorkbookModel } from "./workbook-model";

/** What the API throws: OfficeExtension.Error's code and message. */
export class ExcelApiError extends Error {
  override readonly name = "RichApi.Error";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
  get debugInfo() {
    return { code: this.code, message: this.message };
  }
}

export interface Host {
  model: WorkbookModel;
  calculation: Calculation;
}

/** Most cells one load may read: Excel refuses big payloads, so whole-column reads fail here as they would there. */
export const MAX_LOAD_CELLS = 500_000;

export class RequestContext {
  private queue: Array<() => void> = [];
  private readonly nullables: Array<ClientObject<unknown>> = [];
  constructor(readonly host: Host) {}

  enqueue(op: () => void): void {
    this.queue.push(op);
  }

  trackNullable(proxy: ClientObject<unknown>): void {
    this.nullables.push(proxy);
  }

  async sync(): Promise<void> {
    // Excel answers over a message channel: never synchronously.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const ops = this.queue;
    this.queue = [];
    for (const op of ops) op();
    for (const proxy of this.nullables.splice(0)) proxy.resolve();
  }
}

/** Parses a load() argument: "a,b", ["a","b"], "items/name", { select: "a,b" }. */
export function loadSpec(spec: unknown): string[] {
  if (spec === undefined) return [];
  if (typeof spec === "string")
    return spec
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
  if (Array.isArray(spec)) return spec.flatMap(loadSpec);
  if (typeof spec === "object" && spec !== null && "select" in spec) return loadSpec((spec as { select: unknown }).select);
  throw new ExcelApiError("InvalidArgument", `load() cannot read ${JSON.stringify(spec)}`);
}

export abstract class ClientObject<T> {
  private target: T | null = null;
  private resolved = false;
  protected readonly loaded = new Map<string, unknown>();

  constructor(
    readonly context: RequestContext,
    private readonly resolver: () => T | null,
    nullable = false,
  ) {
    // Resolved in queue order, like any other queued call.
    context.enqueue(() => void this.resolve());
    if (nullable) context.trackNullable(this);
  }

  /** The scalar properties load() with no argument reads. */
  protected abstract readonly scalarProperties: string[];
  protected abstract read(target: T, property: string): unknown;

  resolve(): T | null {
    if (!this.resolved) {
      this.target = this.resolver();
      this.resolved = true;
    }
    return this.target;
  }

  /** The object this proxy stands for; a null object cannot be acted on. */
  require(): T {
    const target = this.resolve();
    if (target === null) throw new ExcelApiError("InvalidArgument", `${this.constructor.name.replace(/Proxy$/, "")} is a null object`);
    return target;
  }

  get isNullObject(): boolean {
    if (!this.resolved) throw new ExcelApiError("PropertyNotLoaded", "isNullObject is known only after context.sync()");
    return this.target === null;
  }

  load(spec?: unknown): this {
    const properties = loadSpec(spec);
    this.context.enqueue(() => {
      const target = this.resolve();
      if (target === null) return;
      for (const property of properties.length ? properties : this.scalarProperties) this.loaded.set(property, this.read(target, property));
    });
    return this;
  }

  /** Reads properties at once (inside a queued operation: collection items are loaded with their collection). */
  loadNow(properties: string[]): void {
    const target = this.require();
    for (const property of properties.length ? properties : this.scalarProperties) this.loaded.set(property, this.read(target, property));
  }

  protected loadedValue<V>(property: string): V {
    if (!this.loaded.has(property)) {
      throw new ExcelApiError(
        "PropertyNotLoaded",
        `The property '${property}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
      );
    }
    return this.loaded.get(property) as V;
  }

  /** Queues a change to the object. */
  protected act(change: (target: T) => void): void {
    this.context.enqueue(() => change(this.require()));
  }
}

/** A collection: load("items/name") (or "name", or "items") fills `items` with loaded proxies. */
export abstract class CollectionProxy<T, P extends ClientObject<T>> extends ClientObject<T[]> {
  protected readonly scalarProperties: string[] = [];
  private list: P[] | null = null;

  protected abstract item(target: T): P;

  get items(): P[] {
    if (!this.list)
      throw new ExcelApiError("PropertyNotLoaded", "The property 'items' is not available: load it and call context.sync() first.");
    return this.list;
  }

  override load(spec?: unknown): this {
    const paths = loadSpec(spec)
      .map((p) => p.replace(/^items\/?/, ""))
      .filter(Boolean);
    this.context.enqueue(() => {
      this.list = this.require().map((target) => {
        const proxy = this.item(target);
        proxy.resolve();
        proxy.loadNow(paths);
        return proxy;
      });
    });
    return this;
  }

  protected read(): unknown {
    return undefined;
  }
}
