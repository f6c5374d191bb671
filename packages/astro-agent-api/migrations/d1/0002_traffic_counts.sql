-- The store's schema: the sqlite backend (src/store/sqlite-schema.ts) runs these files, and D1 runs them through `wrangler d1 migrations apply`. Never edit a released one: add the next.
-- 2: counts of agent traffic per UTC day (TrafficStore in src/store/store.ts).
CREATE TABLE traffic_requests (
  day TEXT NOT NULL,
  surface TEXT NOT NULL,
  target TEXT NOT NULL,
  page TEXT NOT NULL,
  family TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (day, surface, target, page, family)
) STRICT, WITHOUT ROWID;

CREATE TABLE traffic_searches (
  day TEXT NOT NULL,
  surface TEXT NOT NULL,
  family TEXT NOT NULL,
  query TEXT NOT NULL,
  filters TEXT NOT NULL,
  results INTEGER NOT NULL,
  more INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (day, surface, family, query, filters, results, more)
) STRICT, WITHOUT ROWID;
