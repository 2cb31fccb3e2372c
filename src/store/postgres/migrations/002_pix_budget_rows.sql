-- The Pix budget's admission times as rows of their own instead of an array in the budget's one row:
-- an admission wrote the whole array again (a thousand times at PIX_RATE_LIMIT=1000, kept out of line
-- and compressed), about a millisecond each, and admissions are asked one after another. Now an
-- admission deletes the times that left the window, inserts its own, and keeps their count in the
-- budget's row (still the lock every admission takes), each a small write. Unlogged, as the row is.
-- The clock is read to the microsecond, not floored to the millisecond: a floored clock answered a wait
-- up to a millisecond too long, and at a thousand calls a second that is most of a turn.
-- And a poller's turn due within a few ms is booked (taken for its time, not for now), so the sweep asks
-- for its next turn while the last is still ahead: its pace is the window's, not a round trip per call.
CREATE UNLOGGED TABLE pix_budget_admitted (at double precision NOT NULL);
CREATE INDEX pix_budget_admitted_at ON pix_budget_admitted (at);
ALTER TABLE pix_budget DROP COLUMN admitted;
ALTER TABLE pix_budget ADD COLUMN admitted_count integer NOT NULL DEFAULT 0;

-- One number: a wait in ms (> 0, at least 1), or a place taken, the call to go in minus that many ms
-- (≤ 0: a poller's turn due within p_ahead ms is booked for its time). The rules of MemoryRateWindow.
DROP FUNCTION pix_budget_admit(integer, integer, integer);
CREATE FUNCTION pix_budget_admit(p_limit integer, p_reserve integer, p_window integer, p_ahead double precision) RETURNS double precision
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  b pix_budget%ROWTYPE;
  now_ms double precision;
  at_ms double precision;
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
  at_ms := now_ms;
  IF p_reserve > 0 AND now_ms < b.next_turn THEN
    IF b.next_turn - now_ms > p_ahead THEN RETURN greatest(1, ceil(b.next_turn - now_ms - p_ahead)); END IF;
    at_ms := b.next_turn;
  END IF;
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
  INSERT INTO pix_budget_admitted (at) VALUES (at_ms);
  gap := p_window::double precision / lim;
  UPDATE pix_budget SET
    admitted_count = n + 1,
    next_turn = (CASE WHEN at_ms - b.next_turn >= gap THEN at_ms ELSE b.next_turn END) + gap;
  RETURN now_ms - at_ms;
END
$$;
