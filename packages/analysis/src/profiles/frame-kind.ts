/**
 * What kind of code a profile's frame is, from its URL: the one place this is decided, for the
 * native bucket rules (`"frame": "native"`) and for what render says about unplaced code.
 */
export type FrameKind = 'javascript' | 'native' | 'none';

export const FRAME_KINDS: readonly FrameKind[] = ['javascript', 'native', 'none'];

/** A script's URL (any JavaScript or TypeScript file, a query string allowed) or one of Node's own modules. */
const JAVASCRIPT_URL = /^node:|\.(?:[cm]?[jt]s|[jt]sx)(?:\?.*)?$/;

/**
 * `javascript`: a script or one of Node's own modules; `native`: an object file (a binary or a
 * library, as perf names a native frame); `none`: no URL at all (V8's pseudo-frames, code of no file).
 */
export function frameKind(url: string): FrameKind {
  if (url === '') return 'none';
  return JAVASCRIPT_URL.test(url) ? 'javascript' : 'native';
}
