import { Histogram, type Metric, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from './metrics.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OBSERVED: [string, string, number, number][] = [
  ['GET', '/api/v1/', 200, 0.0004],
  ['GET', '/api/v1/', 200, 0.005], // on a bound: counted in it, as Prometheus's `le` says
  ['GET', '/api/v1/', 304, 0.0123],
  ['GET', '/api/v1/posts', 200, 0.26],
  ['POST', '/api/v1/auth/login', 401, 3],
  ['GET', '(web)', 200, 42], // above every bound: +Inf only
  ['GET', '(unmatched)', 404, 0],
  ['GET', '/api/v1/posts', 200, 0.09],
];

describe('the request duration histogram', () => {
  it('shows the same exposition text as a prom-client Histogram fed the same values', async () => {
    const ours = new Registry();
    const durations = new RequestDurations('http_request_duration_seconds', 'Time to answer', BUCKETS);
    ours.registerMetric(durations as unknown as Metric);
    const theirs = new Registry();
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: BUCKETS,
      registers: [theirs],
    });
    for (const [method, route, status, seconds] of OBSERVED) {
      durations.observe(method, route, status, seconds);
      histogram.observe({ method, route, status_code: String(status) }, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/",status_code="200"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="(web)",status_code="200"} 1',
    );
    // The JSON form too, but for prom-client's exemplar fields (never used here).
    const json = async (registry: Registry) =>
      (await registry.getMetricsAsJSON()).map((m) => ({
        ...m,
        values: m.values.map((v) => ({
          labels: v.labels,
          value: v.value,
          metricName: 'metricName' in v && v.metricName,
        })),
      }));
    expect(await json(ours)).toEqual(await json(theirs));

    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain('_count');
  });
});
