/**
 * Run as a child process by the soak: summarises one .heapsnapshot by class and prints the JSON
 * on stdout, so the memory it takes to read a snapshot is returned to the system when it exits.
 *   node summarize-snapshot.js FILE
 */
import { summarizeHeapSnapshotFile } from '@gwprof/analysis';

const file = process.argv[2];
if (!file) {
  console.error('usage: summarize-snapshot.js FILE.heapsnapshot');
  process.exit(2);
}
const summary = await summarizeHeapSnapshotFile(file, { top: 100 });
process.stdout.write(JSON.stringify(summary.classes));
