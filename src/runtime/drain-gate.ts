import type http from 'node:http';

export interface DrainGate {
  /** The start of the drain: from now on nothing new is served. */
  close(): void;
}

/** The answer to a request that arrives once the drain has started. */
const STOPPING = JSON.stringify({ error: 'stopping: send it again (another instance, or this one once restarted)' });

/**
 * A gate in front of a server's request listeners, for a graceful stop: `server.close()` refuses new
 * connections, but a connection kept alive from before would still be served until it idles out. At
 * `close()` the idle connections are closed; an answer still being made says `Connection: close`, so
 * its connection ends with it; and a request that arrives anyway (on a connection whose answer was
 * already on its way) is answered 503 with `Connection: close`, and not served: Slack and the Pix
 * service both send it again.
 */
export function drainGate(server: http.Server): DrainGate {
  const listeners = server.listeners('request') as http.RequestListener[];
  server.removeAllListeners('request');
  const answering = new Set<http.ServerResponse>();
  let closed = false;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (closed) {
      req.resume();
      res
        .writeHead(503, {
          connection: 'close',
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(STOPPING),
        })
        .end(STOPPING);
      return;
    }
    answering.add(res);
    res.once('close', () => answering.delete(res));
    for (const listener of listeners) listener.call(server, req, res);
  });
  return {
    close() {
      closed = true;
      for (const res of answering) if (!res.headersSent) res.setHeader('connection', 'close');
      server.closeIdleConnections();
    },
  };
}
