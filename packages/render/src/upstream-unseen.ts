/**
 * The warning for successful answers that reached none of the subgraphs gwprof counts, worded
 * alike for a sweep's step and a comparison's side. `within` narrows it to some windows.
 */
export function upstreamUnseenWarning(subgraphs: string, answered: string, within = ''): string {
  return `${subgraphs} received no request${within} while ${answered}: it was served from a cache or from subgraphs at other addresses, so its fan-out and the subgraphs' CPU there describe none of its upstream work`;
}
