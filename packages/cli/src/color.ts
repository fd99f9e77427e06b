/**
 * Colour only where it can be seen and is wanted: a terminal, no --no-color, and no NO_COLOR in
 * the environment (no-color.org: present and not empty).
 */
export function colorWanted(flag: boolean): boolean {
  return flag && !process.env.NO_COLOR && process.stdout.isTTY === true;
}
