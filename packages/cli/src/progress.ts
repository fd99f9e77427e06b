/** One progress line on stderr: rewritten in place on a terminal, throttled lines otherwise (CI logs). */
export class ProgressLine {
  private lastPrinted = 0;
  private readonly tty = process.stderr.isTTY === true;

  update(line: string, final: boolean): void {
    if (this.tty) {
      process.stderr.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
      return;
    }
    const now = Date.now();
    if (final || now - this.lastPrinted >= 5000) {
      this.lastPrinted = now;
      process.stderr.write(`${line}\n`);
    }
  }
}
