-- Twin of SQLite migration 031: the response- and provider-time histograms keyed (organization,
-- metric, time bucket, histogram bucket, assistant, channel), the order in which
-- analytics/timeseries.ts sums them per (time bucket, histogram bucket). The upserts' conflict
-- targets name the same set of columns.
ALTER TABLE analytics_latency_hourly DROP CONSTRAINT analytics_latency_hourly_pkey,
  ADD PRIMARY KEY (organization_id, metric, hour, bucket, assistant_id, channel);
ALTER TABLE analytics_latency_daily DROP CONSTRAINT analytics_latency_daily_pkey,
  ADD PRIMARY KEY (organization_id, metric, day, bucket, assistant_id, channel);
