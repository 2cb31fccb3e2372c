-- The app's state in the schema named by STORE_NAMESPACE: the migrator runs this with search_path set
-- to that schema, so names here are unqualified. Keys that are listed in order are compared byte by
-- byte (COLLATE "C"), as sqlite and Redis order them, whatever the database's own collation.

-- Limit requests followed: the record, and whether it is still polled (the open ones).
CREATE TABLE tracked_requests (
  limit_request_id text COLLATE "C" PRIMARY KEY,
  record jsonb NOT NULL,
  polled boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tracked_requests_polled ON tracked_requests (limit_request_id) WHERE polled;

-- Filing intents, recorded before a limit request is sent; indexed by time in sorted_index.
CREATE TABLE filing_intents (
  intent_id text COLLATE "C" PRIMARY KEY,
  record jsonb NOT NULL
);

-- Ids with a score (a time in ms), by index name: what a tick reads instead of scanning records.
CREATE TABLE sorted_index (
  name text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  score bigint NOT NULL,
  PRIMARY KEY (name, id)
);
CREATE INDEX sorted_index_score ON sorted_index (name, score, id);

-- Four-eyes approvals: the record (payload sealed) and, in the same row, when it next needs a tick
-- (null: nothing left to do).
CREATE TABLE approvals (
  id text COLLATE "C" PRIMARY KEY,
  record jsonb NOT NULL,
  due bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX approvals_due ON approvals (due, id) WHERE due IS NOT NULL;

-- Each account's AppID (sealed), and its application's client id.
CREATE TABLE account_apps (
  account_id text COLLATE "C" PRIMARY KEY,
  client_id text,
  record jsonb NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX account_apps_client ON account_apps (client_id, saved_at);

-- Short-lived exclusive claims: one holder until it releases or the claim expires (the database's
-- clock). Unlogged: one is taken for every Slack delivery before it is acknowledged, and a claim is a
-- lease, not a record: a crash of the database server (not a restart, not an app's kill -9) or a
-- failover empties the table, which is every lease lapsing at once. What they guard is recorded in
-- the logged tables and read again under the claim before anything is done, as on Redis.
CREATE UNLOGGED TABLE claims (
  key text COLLATE "C" PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX claims_expiry ON claims (expires_at);

-- Small keyed records of the features (JSON text, compared as text), with an optional expiry.
CREATE TABLE records (
  kind text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  value text NOT NULL,
  expires_at timestamptz,
  PRIMARY KEY (kind, key)
);
CREATE INDEX records_expiry ON records (expires_at) WHERE expires_at IS NOT NULL;

-- The Pix events outbox: an event and its pending mark are one row.
CREATE TABLE pix_events (
  hash text COLLATE "C" PRIMARY KEY,
  received_at timestamptz NOT NULL,
  posted boolean NOT NULL DEFAULT false,
  record jsonb NOT NULL
);
CREATE INDEX pix_events_pending ON pix_events (received_at, hash) WHERE NOT posted;
CREATE INDEX pix_events_posted ON pix_events (received_at) WHERE posted;

CREATE TABLE pix_disputes (
  end_to_end_id text COLLATE "C" PRIMARY KEY,
  open boolean NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX pix_disputes_open ON pix_disputes (end_to_end_id) WHERE open;

-- The audit trail: append-only. The id is the order of appends (writers take the schema's advisory
-- lock in turn, so ids are committed in order); each entry keeps its own time.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  time timestamptz NOT NULL,
  user_id text NOT NULL,
  role text NOT NULL,
  action text NOT NULL,
  target text,
  pix_method text,
  pix_path text,
  pix_status integer,
  maker text,
  checker text,
  outcome text NOT NULL,
  detail text
);
CREATE INDEX audit_log_time ON audit_log (time);

-- Refused by the database itself, whoever asks (the app's own user included), even when no row matches.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only: % of audit_log refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- The Pix budget's window, one for every instance on this schema (the rules of MemoryRateWindow in
-- src/pix/budget.ts, on the database's clock): the admission times of the last window (ascending),
-- when the next evenly spaced turn is due, and the hold-off after a 429. One row, locked by each
-- admission. Unlogged: it is asked before every Pix call, and what it holds lasts a second (a crash of
-- the database empties it, and the window starts again).
CREATE UNLOGGED TABLE pix_budget (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  admitted bigint[] NOT NULL DEFAULT '{}',
  next_turn double precision NOT NULL DEFAULT 0,
  blocked_until bigint NOT NULL DEFAULT 0,
  slow_until bigint NOT NULL DEFAULT 0
);

-- 0: admitted; else the milliseconds until it is worth asking again.
CREATE FUNCTION pix_budget_admit(p_limit integer, p_reserve integer, p_window integer) RETURNS bigint
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  b pix_budget%ROWTYPE;
  now_ms bigint;
  lim integer := p_limit;
  cap integer;
  first integer := 1;
  n integer;
  gap double precision;
BEGIN
  SELECT * INTO b FROM pix_budget FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO pix_budget DEFAULT VALUES ON CONFLICT DO NOTHING;
    SELECT * INTO b FROM pix_budget FOR UPDATE;
  END IF;
  now_ms := floor(extract(epoch FROM clock_timestamp()) * 1000);
  IF b.blocked_until > now_ms THEN RETURN b.blocked_until - now_ms; END IF;
  IF b.slow_until > now_ms THEN lim := greatest(1, lim / 2); END IF;
  IF p_reserve > 0 AND now_ms < b.next_turn THEN RETURN greatest(1, ceil(b.next_turn - now_ms)); END IF;
  cap := greatest(1, lim - p_reserve);
  n := coalesce(array_length(b.admitted, 1), 0);
  -- The times that left the window are the first ones.
  WHILE first <= n AND b.admitted[first] <= now_ms - p_window LOOP first := first + 1; END LOOP;
  n := n - first + 1;
  IF n >= cap THEN RETURN greatest(1, b.admitted[first + n - cap] + p_window - now_ms); END IF;
  gap := p_window::double precision / lim;
  UPDATE pix_budget SET
    admitted = b.admitted[first:] || now_ms,
    next_turn = (CASE WHEN now_ms - b.next_turn >= gap THEN now_ms ELSE b.next_turn END) + gap;
  RETURN 0;
END
$$;

-- After a 429: nobody is admitted for p_ms, and the limit is halved for p_slow_ms after that (never shortened).
CREATE FUNCTION pix_budget_hold_off(p_ms integer, p_slow_ms integer) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  now_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
BEGIN
  INSERT INTO pix_budget DEFAULT VALUES ON CONFLICT DO NOTHING;
  UPDATE pix_budget SET
    blocked_until = greatest(blocked_until, now_ms + p_ms),
    slow_until = greatest(slow_until, now_ms + p_ms + p_slow_ms);
END
$$;
