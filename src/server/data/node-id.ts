// Which service process answered: an opaque id per process, so that during a rollout (or behind
// a load balancer) a client can tell answers from different processes apart without learning
// the machine's host name. Each process logs its id with its pid when it starts listening.
import crypto from "node:crypto";
import os from "node:os";

export const NODE_ID = `node_${crypto.hash("sha256", `${os.hostname()}:${process.pid}`, "hex").slice(0, 10)}`;
