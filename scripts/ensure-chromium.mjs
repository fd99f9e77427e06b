// The browser tests drive Debian's Chromium (no browser downloads are possible here).
// Installs it when missing and we may (root with apt-get); otherwise says what to do.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CHROMIUM = process.env.GWPROF_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`gwprof tests need Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set GWPROF_CHROMIUM`);
    process.exit(1);
  }
  console.error('installing Debian chromium for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
}
