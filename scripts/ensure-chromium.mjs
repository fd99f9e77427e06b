// The browser tests and the screenshot tool drive Debian's Chromium (no browser downloads are
// possible here). Installs it when missing and we may (root with apt-get); otherwise says what to do.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The Chromium to drive (GWPROF_CHROMIUM, or Debian's), installed first when missing and possible; exits with one line otherwise. */
export function ensureChromium() {
  const chromium = process.env.GWPROF_CHROMIUM ?? '/usr/bin/chromium';
  if (existsSync(chromium)) return chromium;
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`gwprof needs Chromium at ${chromium}: install it (apt-get install chromium) or set GWPROF_CHROMIUM`);
    process.exit(1);
  }
  console.error('installing Debian chromium…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  return chromium;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureChromium();
