-- The response- and provider-time histograms of migration 024 keyed in the order the time series
-- reads them: (organization, metric, time bucket, histogram bucket, assistant, channel) instead
-- of (…, time bucket, assistant, channel, histogram bucket). analytics/timeseries.ts sums the
-- rows per (hour, histogram bucket) over every cell of a 90-day range; with the histogram bucket
-- last, SQLite sorted those ~280k rows in a temporary B-tree (a million messages: the GROUP BY
-- was 2/3 of the query, 209-220 ms by hour in `npm run bench`); in this order the rows come out
-- of the table already grouped. The upserts name the same columns (a conflict target is a set),
-- the metrics call groups by histogram bucket alone over a range (either order serves it), and
-- the filters on assistant and channel are checked on the rows of the range, as before.
-- A WITHOUT ROWID table's key is its storage order: each table is rebuilt.
CREATE TABLE analytics_latency_hourly_new (
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  metric           TEXT NOT NULL,
  hour             TEXT NOT NULL,
  assistant_id     TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          TEXT NOT NULL,
  bucket           INTEGER NOT NULL,
  count            INTEGER NOT NULL,
  PRIMARY KEY (organization_id, metric, hour, bucket, assistant_id, channel)
) WITHOUT ROWID;
INSERT INTO analytics_latency_hourly_new (organization_id, metric, hour, assistant_id, channel, bucket, count)
  SELECT organization_id, metric, hour, assistant_id, channel, bucket, count FROM analytics_latency_hourly;
DROP TABLE analytics_latency_hourly;
ALTER TABLE analytics_latency_hourly_new RENAME TO analytics_latency_hourly;
CREATE INDEX analytics_latency_hourly_assistant ON analytics_latency_hourly (assistant_id);

CREATE TABLE analytics_latency_daily_new (
  organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  metric           TEXT NOT NULL,
  day              TEXT NOT NULL,
  assistant_id     TEXT NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
  channel          TEXT NOT NULL,
  bucket           INTEGER NOT NULL,
  count            INTEGER NOT NULL,
  PRIMARY KEY (organization_id, metric, day, bucket, assistant_id, channel)
) WITHOUT ROWID;
INSERT INTO analytics_latency_daily_new (organization_id, metric, day, assistant_id, channel, bucket, count)
  SELECT organization_id, metric, day, assistant_id, channel, bucket, count FROM analytics_latency_daily;
DROP TABLE analytics_latency_daily;
ALTER TABLE analytics_latency_daily_new RENAME TO analytics_latency_daily;
CREATE INDEX analytics_latency_daily_assistant ON analytics_latency_daily (assistant_id);
