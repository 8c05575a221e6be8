import pg from 'pg';

export interface PgListener {
  close(): Promise<void>;
}

const firstBackoffMs = 100;
const maxBackoffMs = 5_000;

/**
 * LISTENs on `channel` over one dedicated PostgreSQL connection and hands each notice's payload to
 * `hear`. The first connection must work (the caller cannot do its job without it, and says so at
 * start); a connection lost later is reported to `onError` and made again with backoff, calling
 * `connected` each time, so a caller can look at what changed while no one listened. A notice
 * missed meanwhile costs only latency: every caller also looks on a timer.
 */
export async function listenOn(options: {
  readonly url: string;
  readonly channel: string;
  readonly applicationName: string;
  readonly hear: (payload: string) => void;
  readonly onError: (error: unknown) => void;
  readonly connected?: () => void;
}): Promise<PgListener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) {
    throw new Error(`'${options.channel}' is not a plain channel name`);
  }
  const state = {
    closed: false,
    client: null as pg.Client | null,
    backoffMs: firstBackoffMs,
    timer: undefined as NodeJS.Timeout | undefined,
  };

  const connect = async (): Promise<void> => {
    const client = new pg.Client({
      connectionString: options.url,
      keepAlive: true,
      application_name: options.applicationName,
    });
    client.on('notification', (message) => {
      if (!state.closed && message.payload !== undefined) options.hear(message.payload);
    });
    const lost = (error?: unknown): void => {
      if (state.client !== client) return;
      state.client = null;
      if (error !== undefined) options.onError(error);
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      reconnectLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    state.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${options.channel}`);
      state.backoffMs = firstBackoffMs;
      options.connected?.();
    } catch (error) {
      lost(error);
      throw error;
    }
  };

  const reconnectLater = (): void => {
    if (state.closed || state.timer !== undefined) return;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.backoffMs = Math.min(maxBackoffMs, state.backoffMs * 2);
      connect().catch(() => undefined);
    }, state.backoffMs);
    state.timer.unref();
  };

  await connect().catch((error: unknown) => {
    state.closed = true;
    clearTimeout(state.timer);
    throw error;
  });
  return {
    async close() {
      state.closed = true;
      clearTimeout(state.timer);
      const client = state.client;
      state.client = null;
      await client?.end().catch(() => undefined);
    },
  };
}
