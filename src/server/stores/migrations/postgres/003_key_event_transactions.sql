-- The transaction that wrote each key event: an event id is taken when its statement runs,
-- not when it commits, so polling by id could pass over an event that commits late; polling by
-- transaction id cannot (stores/postgres/keys.ts).
ALTER TABLE key_events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX key_events_xid ON key_events (xid);
