-- An event is kept for as long as a replay of it could still be accepted, so that one is always a
-- repeat: until `kept_until` (a week past its own time, or its receipt if later), or for good when it is
-- NULL (an event with no time of its own, one dropped as too old). Posted events were deleted a week
-- after their receipt, and an event with no time of its own sent again after that was posted again.
-- Rows written before are kept for good: nothing tells which of them had a time.
ALTER TABLE pix_events ADD COLUMN kept_until timestamptz;
DROP INDEX pix_events_posted;
CREATE INDEX pix_events_kept ON pix_events (kept_until) WHERE posted;
-- A posted event keeps what tells a repeat of it, not its digest (kept for good now, it would keep the
-- customer's name with it).
UPDATE pix_events SET record = record - 'dispute' - 'other' WHERE posted;
