/**
 * Whether the subgraphs gwprof counts saw the gateway's upstream work. A gateway that
 * answers successfully while they see no request is served from elsewhere (a response cache, or
 * subgraphs at other addresses): its fan-out of 0 and the subgraphs' CPU then describe nothing it did.
 */
import type { StepRecord } from '@gwprof/results';

/** True when the gateway answered successfully and the counted subgraphs received no request. */
export function upstreamUnseen(step: Pick<StepRecord, 'fanout' | 'requests'>): boolean {
  return step.fanout === 0 && step.requests.ok > 0;
}

export interface SideUpstreamUnseen {
  side: 'baseline' | 'candidate';
  /** Windows of the side whose counted subgraphs saw no request while it answered successfully. */
  unseen: number;
  windows: number;
}

/** Per side of a comparison, how many of its windows had upstream work the counted subgraphs did not see; sides without any are left out. */
export function upstreamUnseenBySide(
  windows: ReadonlyArray<{ side: 'baseline' | 'candidate'; step: Pick<StepRecord, 'fanout' | 'requests'> }>,
): SideUpstreamUnseen[] {
  return (['baseline', 'candidate'] as const)
    .map((side) => {
      const own = windows.filter((w) => w.side === side);
      return { side, unseen: own.filter((w) => upstreamUnseen(w.step)).length, windows: own.length };
    })
    .filter((s) => s.unseen > 0);
}
