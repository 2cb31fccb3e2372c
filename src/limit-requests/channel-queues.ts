import pLimit from 'p-limit';

/** Deliveries of one channel under way at once: enough to keep its pace busy while one call waits. */
const DELIVERIES_PER_CHANNEL = 2;

/**
 * Where the deliveries of one tick run: one queue per channel, `perChannel` at a time from it, and as
 * many at once over all queues as `channels` busy channels take. A delivery waits for its turn in its
 * channel's queue before it takes a shared place, so a channel with many decisions (which Slack lets
 * the poller answer at about one reply a second) holds at most `perChannel` shared places, and the
 * other channels' replies go on: `channels` of them in full, more a little slower. (A delivery spends
 * most of its time waiting for Slack's pace: the places bound the work in flight, not the rate.)
 */
export class ChannelQueues {
  private readonly queues = new Map<string, pLimit.Limit>();
  private readonly shared: pLimit.Limit;
  private readonly total: number;

  constructor(
    channels: number,
    private readonly perChannel = DELIVERIES_PER_CHANNEL,
  ) {
    this.total = channels * perChannel;
    this.shared = pLimit(this.total);
  }

  /**
   * Runs `job` from `channel`'s queue. `queued` tells it whether it had to wait for a place (its
   * channel's or a shared one) rather than starting at once.
   */
  run<T>(channel: string, job: (queued: boolean) => Promise<T>): Promise<T> {
    let queue = this.queues.get(channel);
    if (!queue) {
      queue = pLimit(this.perChannel);
      this.queues.set(channel, queue);
    }
    const queued =
      queue.activeCount + queue.pendingCount >= this.perChannel || this.shared.activeCount + this.shared.pendingCount >= this.total;
    return queue(() => this.shared(() => job(queued)));
  }
}
