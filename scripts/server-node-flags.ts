/**
 * The Node.js flags the server runs with, wherever it is started for real: `npm start` (both
 * package.json files), the e2e suite, Lighthouse and the benchmarks (ADR 0050). A test
 * (server-node-flags.test.ts) holds the start scripts to this list.
 *
 * `--v8-pool-size=2`: two V8 helper threads (concurrent garbage collection, compilation), not
 * Node's fixed four. A copy given one core (a container, a `taskset`) with four ran four GC
 * helpers on that core beside its own main thread, and each concurrent marking took the core from
 * the event loop for tens of milliseconds. With one (`--v8-pool-size=0` on a one- or two-core
 * process), three fresh processes in five fell into scavenges that promote megabytes and pause
 * 25 ms each, for the life of the process (ADR 0050, addenda).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--v8-pool-size=2'];
