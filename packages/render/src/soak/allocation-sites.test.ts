import { describe, expect, it } from 'vitest';
import type { SoakAllocationSites, SoakResult } from '@gwprof/results';
import { allocationSitesHtml, allocationSitesMarkdown, allocationSitesText } from './allocation-sites.js';

const sites: SoakAllocationSites = {
  tool: 'valgrind-3.19.0 DHAT',
  reason: 'leak',
  runs: [
    { requests: 20, ok: 20, file: 'dhat/dhat-20req.101.out', endedBy: 'signal' },
    { requests: 220, ok: 220, file: 'dhat/dhat-220req.102.out', endedBy: 'signal' },
  ],
  countedRequests: 200,
  totals: { bytesLivePerRequest: 20_004, blocksLivePerRequest: 1.1, bytesAllocatedPerRequest: 28_000, blocksAllocatedPerRequest: 17 },
  sites: [
    {
      name: 'leak_request',
      where: 'in /tmp/stub-gateway',
      frames: ['malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)', 'leak_request (in /tmp/stub-gateway)', 'main (in /tmp/stub-gateway)'],
      bytesLivePerRequest: 20_000,
      blocksLivePerRequest: 1,
      bytesAllocatedPerRequest: 20_000,
    },
  ],
  unseen: [],
  error: null,
};

/** Only what the sites' rendering reads of a soak: its sites and the RssAnon slope beside them. */
const soakWith = (allocationSites: SoakAllocationSites | null): SoakResult =>
  ({
    allocationSites,
    analysis: { trends: [{ series: 'rssAnonAfterCalm', bytesPerRequest: { slope: 19_650.4, low: 19_000, high: 20_100 } }] },
  }) as unknown as SoakResult;

describe("a native soak's allocation sites, rendered", () => {
  it('names the site with its bytes live per request beside the RssAnon slope, and its stack', () => {
    const text = allocationSitesText(soakWith(sites))!;
    expect(text).toMatch(/valgrind-3\.19\.0 DHAT, after the leak verdict: 200 requests counted between a run of 20 and one of 220/);
    expect(text).toMatch(/20000\.0\s+1\.00\s+20000\.0\s+leak_request \(in \/tmp\/stub-gateway\)/);
    expect(text).toContain('In all: 20004.0 bytes live per request, 17.0 blocks allocated per request; RssAnon grew 19650.4 bytes per request in the soak.');
    expect(text).toMatch(/The largest site's stack:\n {2}malloc .*\n {2}leak_request/);
    const md = allocationSitesMarkdown(soakWith(sites)).join('\n');
    expect(md).toMatch(/\| 20000\.0 \| 1\.00 \| 20000\.0 \| `leak_request \(in \/tmp\/stub-gateway\)` \|/);
    expect(md).toContain('[dhat/dhat-220req.102.out](dhat/dhat-220req.102.out)');
    expect(allocationSitesHtml(soakWith(sites))).toMatch(/<details><summary><code>leak_request \(in \/tmp\/stub-gateway\)<\/code><\/summary><pre>malloc/);
  });

  it('says what valgrind could not see, and why no sites were counted', () => {
    const blind = {
      ...sites,
      sites: [],
      unseen: ['valgrind saw 0.20 allocations per request: the gateway allocates through an allocator valgrind does not replace'],
    };
    expect(allocationSitesText(soakWith(blind))).toMatch(/No site held more live bytes[\s\S]*Not seen: valgrind saw 0\.20 allocations per request/);
    const failed = { ...sites, runs: [], totals: null, sites: [], error: 'naming the allocation sites of a native soak needs valgrind' };
    expect(allocationSitesText(soakWith(failed))).toMatch(/not counted: naming the allocation sites of a native soak needs valgrind$/);
    expect(allocationSitesMarkdown(soakWith(null))).toEqual([]);
    expect(allocationSitesHtml(soakWith(null))).toBe('');
  });
});
