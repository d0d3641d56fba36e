// TRUST_PROXY: behind a reverse proxy the service believes X-Forwarded-For and -Proto from the
// proxies it is told to trust, and from nobody else.
import { parseTrustProxy } from "../../src/server/config";
import { startService } from "../helpers/service";

const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "props.example.com", "x-forwarded-for": "203.0.113.9" };

async function homeAndIp(trustProxy: boolean | string[], remoteAddress: string) {
  const { app } = await startService({ trustProxy, email: null });
  app.get("/test-ip", (req, reply) => reply.send({ ip: req.ip, protocol: req.protocol }));
  try {
    const home = await app.inject({ method: "GET", url: "/", headers: forwarded, remoteAddress });
    const seen = (await app.inject({ method: "GET", url: "/test-ip", headers: forwarded, remoteAddress })).json();
    return { home: home.body, ...seen };
  } finally {
    await app.close();
  }
}

test("a trusted proxy's X-Forwarded-* give the client's address and the links' scheme and host", async () => {
  const seen = await homeAndIp(["127.0.0.1"], "127.0.0.1");
  expect(seen.ip).toBe("203.0.113.9");
  expect(seen.protocol).toBe("https");
  expect(seen.home).toContain("https://props.example.com/addin/manifest.xml");
});

test("without TRUST_PROXY, or from an address not listed, the headers are ignored", async () => {
  for (const [trust, peer] of [
    [false, "127.0.0.1"],
    [["10.0.0.0/8"], "192.0.2.7"],
  ] as const) {
    const seen = await homeAndIp(trust as boolean | string[], peer);
    expect(seen.ip).toBe(peer);
    expect(seen.protocol).toBe("http");
    expect(seen.home).not.toContain("props.example.com");
  }
});

test("TRUST_PROXY takes true, addresses, CIDR ranges and range names, and refuses anything else", () => {
  expect(parseTrustProxy(undefined)).toBe(false);
  expect(parseTrustProxy("false")).toBe(false);
  expect(parseTrustProxy("true")).toBe(true);
  expect(parseTrustProxy("127.0.0.1, 10.0.0.0/8, ::1, fd00::/8, loopback")).toEqual([
    "127.0.0.1",
    "10.0.0.0/8",
    "::1",
    "fd00::/8",
    "loopback",
  ]);
  for (const bad of ["2", "yes", "10.0.0.0/33", "proxy.internal", "10.0.0.1/8/1"]) {
    expect(() => parseTrustProxy(bad)).toThrow(/TRUST_PROXY: '.+' is not an IP address/);
  }
});
