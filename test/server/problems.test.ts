// How a problem is built and written: a 4xx captures no stack (it is never logged), a 5xx keeps
// the stack its log line needs, request validation hands the error handler a problem, and the
// body written as one redacted JSON text is the redacted body's JSON.
import type { FastifyRequest } from "fastify";
import { ApiProblem, problemBody, problemText, validationProblem, withoutStacks } from "../../src/server/http/problem";
import { loggerOptions } from "../../src/server/http/logging";
import { logSink } from "../helpers/log-sink";
import { startService } from "../helpers/service";

/** Whether a stack lists any frame (a stack captured with no frames is its first line only). */
const hasFrames = (err: Error) => /\n\s+at /.test(err.stack ?? "");

describe("stacks", () => {
  test("a 4xx problem captures no stack frames; a 5xx problem keeps them", () => {
    expect(hasFrames(new ApiProblem(400, "validation_failed", "limit must be >= 1"))).toBe(false);
    expect(hasFrames(new ApiProblem(404, "not_found", "no such property"))).toBe(false);
    expect(hasFrames(new ApiProblem(500, "internal", "No result."))).toBe(true);
    expect(hasFrames(new ApiProblem(503, "service_unavailable", "later"))).toBe(true);
  });

  test("building a problem, or running withoutStacks, leaves other errors' stacks as they were", () => {
    const limit = Error.stackTraceLimit;
    new ApiProblem(400, "validation_failed", "bad");
    expect(Error.stackTraceLimit).toBe(limit);
    expect(() =>
      withoutStacks(() => {
        throw new Error("inside");
      }),
    ).toThrow("inside");
    expect(Error.stackTraceLimit).toBe(limit);
    expect(hasFrames(new Error("outside"))).toBe(true);
  });

  test("an error thrown inside withoutStacks has no stack frames", () => {
    let caught: Error | undefined;
    try {
      withoutStacks(() => {
        throw new SyntaxError("not a place");
      });
    } catch (err) {
      caught = err as Error;
    }
    expect(caught?.message).toBe("not a place");
    expect(hasFrames(caught!)).toBe(false);
  });
});

describe("validation", () => {
  test("a request that fails its schema reaches the error handler as a validation_failed problem without a stack", async () => {
    const svc = await startService();
    const seen: Error[] = [];
    svc.app.addHook("onError", (_req, _reply, err, done) => {
      seen.push(err);
      done();
    });
    const res = await svc.get("/v1/commercial/properties?limit=0&colour=red");
    await svc.app.close();
    expect(res.statusCode).toBe(400);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(ApiProblem);
    const problem = seen[0] as ApiProblem;
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors?.map((e) => e.parameter).sort()).toEqual(["colour", "limit"]);
    expect(hasFrames(problem)).toBe(false);
    expect(res.json().errors).toEqual(problem.errors);
  });

  test("an unknown query parameter names the endpoint's nearest input: a slip or a name it begins", async () => {
    const svc = await startService();
    const comps = await svc.get("/v1/commercial/sale-comps?property_id=cp_1&max_distance=5");
    const slip = await svc.get("/v1/commercial/properties?state_code=TX&limt=5");
    const far = await svc.get("/v1/commercial/properties?state_code=TX&colour=red");
    await svc.app.close();
    expect(comps.statusCode).toBe(400);
    expect(comps.json().errors).toEqual([
      {
        pointer: "/max_distance",
        detail: "max_distance is not a known parameter of this endpoint; did you mean max_distance_miles?",
        parameter: "max_distance",
      },
    ]);
    expect(slip.json().detail).toBe("limt is not a known parameter of this endpoint; did you mean limit?");
    expect(far.json().detail).toBe("colour is not a known parameter of this endpoint");
  });

  test("field errors name the parameter of a query or path, and only the pointer of a body field", () => {
    const errors = [
      { keyword: "minimum", instancePath: "/limit", params: { limit: 1 }, message: "must be >= 1" },
      {
        keyword: "additionalProperties",
        instancePath: "",
        params: { additionalProperty: "colour" },
        message: "must NOT have additional properties",
      },
    ];
    expect(validationProblem(errors, "querystring").errors).toEqual([
      { pointer: "/limit", detail: "limit must be >= 1", parameter: "limit" },
      { pointer: "/colour", detail: "colour is not a known parameter of this endpoint", parameter: "colour" },
    ]);
    expect(validationProblem(errors, "body").errors).toEqual([
      { pointer: "/limit", detail: "limit must be >= 1" },
      { pointer: "/colour", detail: "colour is not a known field" },
    ]);
    expect(validationProblem(errors, "body").detail).toBe("limit must be >= 1; colour is not a known field");
  });
});

describe("the body written", () => {
  const req = { id: "req_test" } as FastifyRequest;
  const key = "propi_live_0123456789abcdefABCDEF_xyz";
  const texts = [
    key,
    `Austin ${key}, TX`,
    `"${key}"`,
    `back\\slash ${key}\\`,
    `line\n${key}\tend`,
    `control \u0001${key}\u001f`,
    `PROPI%5Fpercent%5fencoded`,
    `propi%5f${key}`,
    "propi_",
    "propi",
    "San José, CA ✓ \ud83c\udfd9 \ud800 lone",
    'quote " and \\ and / and \u2028',
  ];

  test.each(texts)("is the redacted body's JSON, byte for byte: %j", (text) => {
    const problem = new ApiProblem(
      400,
      "unknown_place",
      `geography: this snapshot holds no city "${text}".`,
      [{ pointer: `/${text}`, parameter: text, detail: text }],
      { parameter: "geography", place: text, suggestions: [text, "Austin, TX"], unknown_ids: [text] },
    );
    expect(problemText(req, problem)).toBe(JSON.stringify(problemBody(req, problem)));
  });

  test("redacts a key in a member name too", () => {
    const problem = new ApiProblem(400, "validation_failed", "bad", undefined, { [key]: key } as object);
    const text = problemText(req, problem);
    expect(text).not.toContain(key.slice(6));
    expect(text).toBe(JSON.stringify(problemBody(req, problem)));
  });

  test("lists the members in the body's order: the core, the field errors, then the extensions", () => {
    const problem = new ApiProblem(400, "unknown_place", "d", [{ pointer: "/g", parameter: "g", detail: "d" }], {
      place: "x",
      suggestions: [],
    });
    expect(Object.keys(JSON.parse(problemText(req, problem)))).toEqual([
      "type",
      "title",
      "status",
      "detail",
      "code",
      "request_id",
      "errors",
      "place",
      "suggestions",
    ]);
  });
});

describe("the log", () => {
  test("a 500 problem is logged at error with its stack's frames", async () => {
    const sink = logSink();
    const svc = await startService({ logger: loggerOptions("warn", sink.stream) });
    svc.app.get("/fails", () => {
      throw new ApiProblem(500, "internal", "No result.");
    });
    const res = await svc.app.inject({ method: "GET", url: "/fails" });
    await svc.app.close();
    expect(res.statusCode).toBe(500);
    const line = sink
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { level: number; reqId?: string; err?: { stack?: string } })
      .find((l) => l.level === 50);
    expect(line?.reqId).toBe(res.headers["x-request-id"]);
    expect(line?.err?.stack).toMatch(/\n\s+at /);
  });

  test("a 4xx answer is logged as its request's completion (request id, status), with no stack", async () => {
    const sink = logSink();
    const svc = await startService({ logger: loggerOptions("info", sink.stream) });
    const res = await svc.get("/v1/commercial/markets/snapshot?geography=Zzyzx%20Qqq&asset_type=industrial");
    await svc.app.close();
    expect(res.statusCode).toBe(400);
    const lines = sink
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const done = lines.find((l) => l.reqId === res.headers["x-request-id"] && (l.res as { statusCode?: number })?.statusCode === 400);
    expect(done).toBeDefined();
    expect(sink.text()).not.toMatch(/"stack"|"level":50/);
  });
});
