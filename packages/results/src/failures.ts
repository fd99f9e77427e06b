/** How a response failed validation: counts by kind, and samples of the messages. */
export interface FailureCounts {
  non2xx: number;
  /** 2xx responses whose body was not JSON or had no `data`. */
  badBody: number;
  graphqlErrors: number;
  /** `data` differs from the golden response. */
  mismatch: number;
  timeouts: number;
  /** The connection failed: refused, reset, closed before the response was whole. */
  socketErrors: number;
  /** The gateway's bytes were not an HTTP/1.1 response (a bad status line, header, line end or chunk). Absent in results written before it was told apart from socketErrors (read as 0). */
  protocolErrors: number;
}

export interface FailureSample {
  kind: keyof FailureCounts;
  /** Untrusted text from the gateway (status line, error message, body excerpt). Escape when rendering. */
  message: string;
  count: number;
}
