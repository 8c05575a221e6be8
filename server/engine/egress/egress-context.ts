import type net from 'node:net';
import type { Admitted, Destination } from './egress-destination';
import type { Refusal } from './egress-refusal';

/** What the CONNECT and plain-HTTP handlers share of one running proxy. */
export interface EgressContext {
  /** A tunnel or request with no bytes either way for this long is closed. */
  readonly idleTimeoutMs: number;
  /** The refusal of a connection over the cap. */
  readonly atCap: Refusal;
  /** Counts a connection against the cap; null (and an answer) when at the cap. */
  acquire(): (() => void) | null;
  /** The checked addresses to connect to, or why not (see admitDestination). */
  admit(target: Destination, plainHttp: boolean): Promise<Admitted | Refusal>;
  /** Connects to the first address that answers (see connectUpstream). */
  connect(addresses: readonly string[], port: number): Promise<net.Socket | Refusal>;
  /** Logs the destination's outcome (null: allowed). */
  record(host: string, port: number, outcome: Refusal | null): void;
}
