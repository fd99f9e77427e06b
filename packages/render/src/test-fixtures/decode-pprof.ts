/** Reads a pprof profile back into plain stacks, so tests can check what gwprof wrote. */
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';

/** One frame of a decoded stack. */
export interface PprofFrame {
  name: string;
  file: string;
  /** 1-based. */
  line: number;
}

export interface PprofStackSample {
  /** Root first, leaf last (pprof stores leaf first). */
  stack: PprofFrame[];
  value: number;
  labels: Record<string, string>;
}

export interface DecodedPprof {
  sampleTypes: Array<{ type: string; unit: string }>;
  comments: string[];
  samples: PprofStackSample[];
  /** Sum of all sample values (first sample type). */
  total: number;
}

/** Reads a pprof profile back, gzipped or not. */
export function decodePprofProfile(bytes: Uint8Array): DecodedPprof {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  const profile = Profile.decode(raw);
  const text = (index: number | bigint) => profile.stringTable.strings[Number(index)] ?? '';
  const functions = new Map(profile.function.map((fn) => [Number(fn.id), fn]));
  const locations = new Map(profile.location.map((loc) => [Number(loc.id), loc]));
  const frameOf = (locationId: number | bigint): PprofFrame => {
    const line = locations.get(Number(locationId))?.line[0];
    const fn = line === undefined ? undefined : functions.get(Number(line.functionId));
    return { name: fn ? text(fn.name) : '', file: fn ? text(fn.filename) : '', line: Number(line?.line ?? 0) };
  };
  const samples = profile.sample.map((sample) => ({
    stack: sample.locationId.map(frameOf).reverse(),
    value: Number(sample.value[0] ?? 0),
    labels: Object.fromEntries(sample.label.map((label) => [text(label.key), text(label.str)])),
  }));
  return {
    sampleTypes: profile.sampleType.map((t) => ({ type: text(t.type), unit: text(t.unit) })),
    comments: profile.comment.map(text),
    samples,
    total: samples.reduce((sum, sample) => sum + sample.value, 0),
  };
}
