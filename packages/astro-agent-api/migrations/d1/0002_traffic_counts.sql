-- astro-agent-api store, migration 2 (the same as migration 2 of src/store/sqlite-schema.ts).
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
