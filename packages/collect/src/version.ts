import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

export const TOOL_VERSION: string = (JSON.parse(readFileSync(path.join(repoRoot, 'packages/collect/package.json'), 'utf8')) as { version: string }).version;
