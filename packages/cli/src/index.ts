export { publishRun, publishStepProfile } from './publish.js';
