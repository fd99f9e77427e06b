import { packageVersion } from '../paths.js';

export const TOOL_VERSION: string = packageVersion();
