import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root (this file compiles to packages/collect/dist/paths.js). */
export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export const subgraphsDir = path.join(repoRoot, 'subgraphs');
export const gatewaysDir = path.join(repoRoot, 'gateways');
export const fixturesDir = path.join(repoRoot, 'fixtures');
export const defaultProfilesDir = path.join(repoRoot, 'profiles');
