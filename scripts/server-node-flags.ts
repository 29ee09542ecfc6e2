/**
 * The Node.js flags the server runs with, wherever it is started for real: `npm start` (both
 * package.json files), the e2e suite, Lighthouse and the benchmarks (ADR 0050). A test
 * (server-node-flags.test.ts) holds the start scripts to this list.
 *
 * `--v8-pool-size=0`: V8's helper threads (concurrent garbage collection, compilation) sized from
 * the CPUs the process may use, not Node's fixed four. A copy given one core (a container, a
 * `taskset`) otherwise runs four GC helper threads on that core beside its own main thread, and
 * each concurrent marking takes the core from the event loop for tens of milliseconds.
 *
 * `--no-allocation-site-pretenuring`: V8 allocates no object straight into the old generation on
 * the strength of how long its allocation site's earlier objects lived. A site judged long-lived at
 * an unlucky moment put some processes, for their whole life, in a mode where each request's
 * short-lived objects were copied and promoted (scavenges of 20–30 ms, a full GC every second,
 * 1.5–2× the CPU per request); with the flag no process did (ADR 0050, last addendum).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--v8-pool-size=0', '--no-allocation-site-pretenuring'];
