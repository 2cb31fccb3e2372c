-- The Pix budget's admission times as rows of their own instead of an array in the budget's one row:
-- an admission wrote the whole array again (a thousand times at PIX_RATE_LIMIT=1000, kept out of line
-- and compressed), about a millisecond each, and admissions are asked one after another. Now an
-- admission deletes the times that left the window, inserts its own, and keeps their count in the
-- budget's row (still the lock every admission takes), each a small write. Unlogged, as the row is.
-- The clock is read to the microsecond, not floored to the millisecond: a floored clock answered a wait
-- up to a millisecond too long, and at a thousand calls a second that is most of a turn.
CREATE UNLOGGED TABLE pix_budget_admitted (at double precision NOT NULL);
CREATE INDEX pix_budget_admitted_at ON pix_budget_admitted (at);
ALTER TABLE pix_budget DROP COLUMN admitted;
ALTER TABLE pix_budget ADD COLUMN admitted_count integer NOT NULL DEFAULT 0;

-- 0: admitted; else the milliseconds until it is worth asking again (the rules of MemoryRateWindow).
CREATE OR REPLACE FUNCTION pix_budget_admit(p_limit integer, p_reserve integer, p_window integer) RETURNS bigint
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  b pix_budget%ROWTYPE;
  now_ms double precision;
  lim integer := p_limit;
  cap integer;
  left_window integer;
  n integer;
  freeing double precision;
  gap double precision;
BEGIN
  SELECT * INTO b FROM pix_budget FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO pix_budget DEFAULT VALUES ON CONFLICT DO NOTHING;
    SELECT * INTO b FROM pix_budget FOR UPDATE;
  END IF;
  now_ms := extract(epoch FROM clock_timestamp()) * 1000;
  IF b.blocked_until > now_ms THEN RETURN ceil(b.blocked_until - now_ms); END IF;
  IF b.slow_until > now_ms THEN lim := greatest(1, lim / 2); END IF;
  IF p_reserve > 0 AND now_ms < b.next_turn THEN RETURN greatest(1, ceil(b.next_turn - now_ms)); END IF;
  cap := greatest(1, lim - p_reserve);
  DELETE FROM pix_budget_admitted WHERE at <= now_ms - p_window;
  GET DIAGNOSTICS left_window = ROW_COUNT;
  n := greatest(0, b.admitted_count - left_window);
  IF n >= cap THEN
    -- The place frees when the admission that fills the window past `cap` leaves it.
    SELECT at INTO freeing FROM pix_budget_admitted ORDER BY at OFFSET n - cap LIMIT 1;
    UPDATE pix_budget SET admitted_count = n;
    RETURN greatest(1, ceil(freeing + p_window - now_ms));
  END IF;
  INSERT INTO pix_budget_admitted (at) VALUES (now_ms);
  gap := p_window::double precision / lim;
  UPDATE pix_budget SET
    admitted_count = n + 1,
    next_turn = (CASE WHEN now_ms - b.next_turn >= gap THEN now_ms ELSE b.next_turn END) + gap;
  RETURN 0;
END
$$;
