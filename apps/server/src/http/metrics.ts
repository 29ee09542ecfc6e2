import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import type { Database } from '../db/client.ts';
import { type CompletedListener, pathOf } from './request-log.ts';

export interface MetricsSources {
  database: Database;
  /** Sockets connected to this copy. */
  sockets(): number;
  /** Whether live events reach the other copies (Redis). */
  linked(): boolean;
}

export interface Metrics {
  registry: Registry;
  /** The exposition text (Prometheus format). */
  render(): Promise<string>;
}

/** Jobs waiting (created, retry) and running (active), per pg-boss queue. */
const JOB_COUNTS_SQL = `SELECT name, state::text AS state, count(*)::int AS jobs
  FROM pgboss.job WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`;

/**
 * Prometheus metrics of one server copy: request latency by route pattern (never the raw URL,
 * which would carry ids), job queue depth, connected sockets, the database pool, whether the
 * database and Redis are reachable, and Node's process metrics. Each app has a registry of its own.
 */
export function createMetrics(
  sources: MetricsSources,
  requests: { onCompleted(listener: CompletedListener): void },
): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { database } = sources;

  const durations = new RequestDurations(
    'http_request_duration_seconds',
    'Time to answer an HTTP request, by method, route pattern and status',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  registry.registerMetric(durations as unknown as Metric);
  requests.onCompleted((req, reply) => {
    const route = req.routeOptions.url ?? (req.url.startsWith('/api/') ? '(unmatched)' : '(web)');
    durations.observe(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  new Gauge({
    name: 'fanverse_socket_connections',
    help: 'Realtime sockets connected to this copy',
    registers: [registry],
    collect() {
      this.set(sources.sockets());
    },
  });
  new Gauge({
    name: 'fanverse_redis_linked',
    help: '1 when live events reach the other copies through Redis (always 1 without Redis)',
    registers: [registry],
    collect() {
      this.set(sources.linked() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'fanverse_db_pool_connections',
    help: 'Database connections of this copy by state (PGlite: one in-process connection)',
    labelNames: ['database', 'state'] as const,
    registers: [registry],
    collect() {
      const stats = database.poolStats();
      this.set({ database: database.kind, state: 'total' }, stats.total);
      this.set({ database: database.kind, state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'fanverse_db_pool_waiting',
    help: 'Queries waiting for a free database connection',
    labelNames: ['database'] as const,
    registers: [registry],
    collect() {
      this.set({ database: database.kind }, database.poolStats().waiting);
    },
  });
  const up = new Gauge({
    name: 'fanverse_database_up',
    help: '1 when the database answers',
    registers: [registry],
  });
  new Gauge({
    name: 'fanverse_job_queue_jobs',
    help: 'Jobs per pg-boss queue: waiting (created, retry) and running (active)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const rows = await database.session((exec) => exec(JOB_COUNTS_SQL));
        up.set(1);
        for (const row of rows)
          this.set({ queue: String(row.name), state: String(row.state) }, Number(row.jobs));
      } catch {
        // The database is away (or the queue tables are not created yet): depth unknown.
        up.set(
          await database.ping().then(
            () => 1,
            () => 0,
          ),
        );
      }
    },
  });

  return { registry, render: () => registry.metrics() };
}

interface DurationSeries {
  labels: { method: string; route: string; status_code: string };
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The request duration histogram, by method, route pattern and status. prom-client's Histogram
 * checks and hashes the labels on every observe(), even through a labelled child: about 1 µs of
 * the start-up call's CPU (issue 13). Here a request finds its series in a Map and adds one to one
 * bucket. The registry shows it as it shows prom-client's own histograms (`get()` answers in
 * the same form; a test holds the exposition text to a prom-client Histogram fed the same values).
 */
export class RequestDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, DurationSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { method, route, status_code: String(status) },
        counts: new Array<number>(this.buckets.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.buckets.length && seconds > (this.buckets[bucket] as number)) bucket++;
    series.counts[bucket] = (series.counts[bucket] as number) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The metric as prom-client's registry reads it: cumulative buckets, then sum and count. */
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += counts[i] as number;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}

const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Serves GET /metrics on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by default), so
 * the public port never exposes it. With METRICS_TOKEN a request needs `Authorization: Bearer`;
 * without one, a request that came through a proxy (proxy headers) is refused, since a reverse
 * proxy on the same machine would make a loopback listener public.
 */
export async function serveMetrics(
  metrics: Metrics,
  opts: { host: string; port: number; token?: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const expected = opts.token ? Buffer.from(`Bearer ${opts.token}`) : undefined;
  const server = http.createServer((req, res) => {
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
    };
    if (req.method !== 'GET' || pathOf(req.url ?? '') !== '/metrics') return answer(404, 'Not found');
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return answer(401, 'Unauthorized');
    } else if (PROXY_HEADERS.some((h) => req.headers[h] !== undefined)) {
      return answer(403, 'Metrics are not served through a proxy without METRICS_TOKEN');
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => answer(500, 'Metrics failed'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address() as { address: string; port: number; family: string };
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
