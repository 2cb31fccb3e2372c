/** An id and its score (a time, in ms). */
export interface IndexEntry {
  id: string;
  score: number;
}

/**
 * A set of ids, each with a score: what a tick reads instead of scanning records (on Redis a SCAN
 * walks the whole keyspace, every other deployment's keys included, however few records the set
 * holds). The filing intents (by their time), the approvals (by when each next needs attention) and
 * the limit requests still polled (by when each was tracked) each keep one. Redis: a sorted set;
 * sqlite: an indexed table; shared by every instance.
 */
export interface SortedIndex {
  /** Adds the id, or moves it to its new score. */
  put(id: string, score: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** The entries scored at most `maxScore`, lowest first, at most `limit`. */
  range(maxScore: number, limit: number): Promise<IndexEntry[]>;
  /** Every entry, lowest score first; at most `limit` when given. */
  all(limit?: number): Promise<IndexEntry[]>;
  count(): Promise<number>;
}
