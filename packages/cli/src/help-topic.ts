/**
 * `gwprof help <name>` for a name that is no command: commander would print the root help as if
 * nothing were wrong; this names the typo and the nearest command, as an unknown command does.
 */
import type { Command } from 'commander';
import { GwprofError } from '@gwprof/results';

/** The error for `help <name>` when <name> is no command of the program; null otherwise. */
export function unknownHelpTopic(program: Command, args: readonly string[]): GwprofError | null {
  if (args[0] !== 'help' || args[1] === undefined || args[1].startsWith('-')) return null;
  const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  const topic = args[1];
  if (names.includes(topic)) return null;
  const nearest = nearestName(topic, names);
  return new GwprofError(`no command named '${topic}'${nearest ? `: did you mean ${nearest}?` : ''} (gwprof help lists them)`);
}

/** The name fewest edits away from `typo`, when it is near enough to be what was meant. */
export function nearestName(typo: string, names: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const distance = editDistance(typo.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  // A third of the name may be wrong: "sweepp", "comapre", "bisec"; "xyz" is near nothing.
  return best && best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : null;
}

/** Edits (insert, delete, substitute, swap two neighbours) that turn a into b. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
