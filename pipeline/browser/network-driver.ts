// What every network driver yields: the study's network events (verifier/src/events.ts) with
// t_ms on the process clock (absolute; the recorder shifts them to the dispatch), and what the
// driver can and cannot tell. Drivers record while the page runs and normalise when stopped.
import type { EvidenceEvent } from '../../verifier/src/events.ts';

export interface DriverCapabilities {
  protocol: 'cdp' | 'webdriver-bidi';
  /** where network t_ms comes from */
  network_clock: string;
  /** whether a response's served-from-cache / served-by-service-worker flags are reported (null otherwise) */
  from_cache: boolean;
  from_service_worker: boolean;
}

export interface NetworkDriver {
  readonly capabilities: DriverCapabilities;
  /** stops recording and returns the normalised events, t_ms on the process clock */
  stop(): Promise<EvidenceEvent[]>;
}
